      PROGRAM HEAT
C     1-D explicit heat step, data redistributed between sweeps
      INTEGER N, NSTEP
      PARAMETER (N = 64, NSTEP = 6)
      REAL U(N), V(N), W(N)
      INTEGER I, IT, IMX
      REAL TOT
CHPF$ PROCESSORS P(NUMBER_OF_PROCESSORS())
CHPF$ DYNAMIC U, V
CHPF$ DISTRIBUTE U(BLOCK) ONTO P
CHPF$ ALIGN V(I) WITH U(I)
CHPF$ DISTRIBUTE W(CYCLIC) ONTO P
      DO I = 1, N
         U(I) = REAL(MOD(I*7, 16))
         W(I) = 0.0
      END DO
      DO IT = 1, NSTEP
         IF (MOD(IT, 2) .EQ. 0) THEN
CHPF$       REDISTRIBUTE U(CYCLIC(4)) ONTO P
         ELSE
CHPF$       REDISTRIBUTE U(BLOCK) ONTO P
         END IF
         V = 0.25 * (CSHIFT(U, 1) + CSHIFT(U, -1)) + 0.5 * U
         CALL SMOOTH(U, V, N)
         TOT = SUM(U)
         IMX = MAXLOC(U, 1)
         WRITE (*, '(A,I3,A,F10.4,A,I4)') ' step', IT, ' sum', TOT,
     &        ' maxloc', IMX
      END DO
CHPF$ INDEPENDENT
      DO I = 1, N
         W(I) = U(I) * 4.0
      END DO
      WRITE (*, '(8F9.4)') (W(I), I = 1, 16)
      WRITE (*, '(A,F10.4)') ' maxval ', MAXVAL(W)
      END

      SUBROUTINE SMOOTH(X, Y, M)
      INTEGER M
      REAL X(M), Y(M)
CHPF$ INHERIT X, Y
      INTEGER J
CHPF$ INDEPENDENT
      DO J = 1, M
         X(J) = Y(J)
      END DO
      END
