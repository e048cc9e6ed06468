      PROGRAM PSCAN
C     Prefix sums and histograms of an allocatable array whose
C     distribution changes inside the loop (CYCLIC(k), k = 1, 2, 4)
      IMPLICIT NONE
      INTEGER N, NB
      PARAMETER (N = 48, NB = 8)
      INTEGER, ALLOCATABLE :: X(:), PS(:)
      INTEGER HIST(NB)
      INTEGER I, K, KK, TOT
CHPF$ DYNAMIC X, PS
CHPF$ DISTRIBUTE X(BLOCK)
CHPF$ DISTRIBUTE PS(BLOCK)
CHPF$ DISTRIBUTE HIST(CYCLIC)
      ALLOCATE (X(N), PS(N))
      DO I = 1, N
         X(I) = MOD(I * I, NB)
      END DO
      KK = 1
      DO K = 1, 3
         IF (KK .EQ. 1) THEN
CHPF$       REDISTRIBUTE X(CYCLIC)
CHPF$       REDISTRIBUTE PS(CYCLIC)
         ELSE IF (KK .EQ. 2) THEN
CHPF$       REDISTRIBUTE X(CYCLIC(2))
         ELSE
CHPF$       REDISTRIBUTE X(CYCLIC(4))
CHPF$       REDISTRIBUTE PS(BLOCK)
         END IF
         CALL PREFIX(X, PS, N)
         CALL HISTO(X, N, HIST, NB)
         TOT = ISUM(HIST)
         WRITE (*, '(A,I2,A,I6,A,I4,A,I4)') 'k=', KK, ' last=', PS(N),
     &        ' tot=', TOT, ' mode=', MAXLOC(HIST, 1)
         WRITE (*, '(8I5)') HIST
         X = CSHIFT(X, KK) + 1
         WHERE (X .GE. NB) X = X - NB
         KK = KK * 2
      END DO
      WRITE (*, '(12I4)') PS(1:12)
      DEALLOCATE (X, PS)
      CONTAINS
      INTEGER FUNCTION ISUM(V)
      INTEGER V(:)
      ISUM = SUM(V)
      END FUNCTION ISUM
      END

      SUBROUTINE PREFIX(A, P, M)
      INTEGER M
      INTEGER, INTENT(IN) :: A(M)
      INTEGER, INTENT(OUT) :: P(M)
CHPF$ INHERIT A, P
      INTEGER J
      P(1) = A(1)
      DO J = 2, M
         P(J) = P(J-1) + A(J)
      END DO
      END

      SUBROUTINE HISTO(A, M, H, NBIN)
      INTEGER M, NBIN
      INTEGER A(M), H(NBIN)
CHPF$ DISTRIBUTE A(CYCLIC(3))
      INTEGER J
      H = 0
      DO J = 1, M
         H(A(J) + 1) = H(A(J) + 1) + 1
      END DO
      END
