C     FIXED-FORM HPF TEST: A (BLOCK, *) MATRIX AND A ROW-ALIGNED
C     VECTOR PASSED TO UNDIRECTED AND INHERIT DUMMIES.
      SUBROUTINE ROWOPS(A, V, M, N)
      IMPLICIT NONE
      INTEGER M, N
      DOUBLE PRECISION A(M, N), V(M)
      INTEGER I, J
      DOUBLE PRECISION T
      DO 20 J = 1, N
         DO 10 I = 1, M
            A(I, J) = A(I, J) + 0.5D0 * V(I)
   10    CONTINUE
   20 CONTINUE
      DO 40 I = 1, M
         T = A(I, 1)
         DO 30 J = 2, N
            IF (A(I, J) .GT. T) T = A(I, J)
   30    CONTINUE
         V(I) = T
   40 CONTINUE
      RETURN
      END

      PROGRAM PASSFX
      IMPLICIT NONE
      INTEGER M, N
      PARAMETER (M = 20, N = 13)
      DOUBLE PRECISION A(M, N), V(M)
      INTEGER I, J, K
CHPF$ DISTRIBUTE A(BLOCK, *)
CHPF$ ALIGN V(I) WITH A(I, *)
      EXTERNAL ROWOPS, SHIFTV
      DO 60 J = 1, N
         DO 50 I = 1, M
            A(I, J) = DBLE(MOD(I * J, 9) - 4)
   50    CONTINUE
   60 CONTINUE
      DO 70 I = 1, M
         V(I) = 0.25D0 * DBLE(I)
   70 CONTINUE
      DO 80 K = 1, 3
         CALL ROWOPS(A, V, M, N)
         CALL SHIFTV(V, M)
         WRITE (6, *) 'PASS', K
         WRITE (6, '(A, ES22.14)') ' SUM(A)    =', SUM(A)
         WRITE (6, '(A, ES22.14)') ' MAXVAL(A) =', MAXVAL(A)
         WRITE (6, '(A, ES22.14)') ' SUM(V)    =', SUM(V)
         WRITE (6, '(A, ES22.14)') ' DOT(V, V) =',
     &        DOT_PRODUCT(V, V)
   80 CONTINUE
      DO 90 I = 1, M, 6
         WRITE (6, *) 'ROW', I
         WRITE (6, '(A, ES22.14)') ' A(I, 1)   =', A(I, 1)
         WRITE (6, '(A, ES22.14)') ' A(I, N)   =', A(I, N)
         WRITE (6, '(A, ES22.14)') ' V(I)      =', V(I)
   90 CONTINUE
      END

      SUBROUTINE SHIFTV(V, M)
      IMPLICIT NONE
      INTEGER M
      DOUBLE PRECISION V(M)
CHPF$ INHERIT V
      INTEGER I
      DOUBLE PRECISION T
      T = V(M)
      DO 10 I = M, 2, -1
         V(I) = V(I - 1)
   10 CONTINUE
      V(1) = T
      RETURN
      END
