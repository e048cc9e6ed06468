      PROGRAM GRID2D
C     2-D block-block grid on a 2x2 processor array, column sections
C     passed to a routine with no mapping directives
      INTEGER N
      PARAMETER (N = 16)
      REAL A(N,N), B(N,N), C(N)
      INTEGER I, J, LOC(2), JMAX
      REAL CMAX
!HPF$ PROCESSORS P(2,2)
!HPF$ TEMPLATE T(N,N)
!HPF$ DISTRIBUTE T(BLOCK,BLOCK) ONTO P
!HPF$ ALIGN A(I,J) WITH T(I,J)
!HPF$ ALIGN B(I,J) WITH T(J,I)
!HPF$ ALIGN C(I) WITH T(I,1)
!HPF$ INDEPENDENT, NEW(I)
      DO J = 1, N
!HPF$    INDEPENDENT
         DO I = 1, N
            A(I,J) = REAL(MOD(I + 3*J, 9)) - 4.0
         END DO
      END DO
      FORALL (I = 1:N, J = 1:N) B(I,J) = A(J,I) * 0.5
      C = 0.0
      DO J = 1, N - 1, 5
         CALL COLNRM(A(:,J), N, C(J))
         CALL COLNRM(B(:,J), N, C(J+1))
      END DO
      WRITE (*, '(4F10.3)') (C(J), J = 1, 12)
      WHERE (A .GT. 2.0)
         A = A - B
      ELSEWHERE
         A = 2.0 * A
      END WHERE
      LOC = MAXLOC(A)
      CMAX = MAXVAL(A)
      WRITE (*, '(A,F9.3,A,2I4)') 'max ', CMAX, ' at ', LOC
      LOC = MINLOC(A + B)
      WRITE (*, '(A,2I4)') 'minloc(a+b) ', LOC
      JMAX = MAXLOC(SUM(A, DIM=1), 1)
      WRITE (*, '(A,I4,F10.2)') 'col with max sum ', JMAX,
     &     SUM(A(:,JMAX))
      A = CSHIFT(A, 1, 2)
      WRITE (*, '(A,F10.2)') 'a(1,1) after shift ', A(1,1)
      WRITE (*, '(A,F10.2)') 'total ', SUM(A) + SUM(B)
      END

      SUBROUTINE COLNRM(X, M, R)
      INTEGER M
      REAL X(M), R
      INTEGER K
      R = 0.0
      DO K = 1, M
         R = R + ABS(X(K))
      END DO
      END
