      PROGRAM REDFIX
C     Fixed-form HPF test: a 20x13 matrix A is remapped from
C     (BLOCK,BLOCK) onto a 2x2 grid to (CYCLIC,*) for a row sweep and
C     back again on every pass of a labelled DO loop.  B follows A.
      IMPLICIT NONE
      INTEGER N, M, NPASS
      PARAMETER (N = 20, M = 13, NPASS = 3)
C     Dyadic coefficients + rounding to a 2**-16 grid keep every
C     checksum exact, independent of the order of reduction.
      DOUBLE PRECISION GRID
      PARAMETER (GRID = 65536.0D0)
      DOUBLE PRECISION A(N, M), B(N, M)
      DOUBLE PRECISION FINIT
      INTEGER I, J, K
CHPF$ PROCESSORS P(2, 2)
CHPF$ DYNAMIC A
CHPF$ DISTRIBUTE A(BLOCK, BLOCK) ONTO P
CHPF$ ALIGN B(I, J) WITH A(I, J)
C
C     Initialise
C
      DO 30 J = 1, M
         DO 20 I = 1, N
            A(I, J) = FINIT(I, J)
   20    CONTINUE
   30 CONTINUE
      B = 0.0D0
      WRITE (6, '(A, ES22.14)') ' INITIAL SUM A  ', SUM(A)
C
C     Main loop: row sweep needs whole rows local
C
      DO 10 K = 1, NPASS
CHPF$ REDISTRIBUTE A(CYCLIC, *)
         DO 40 J = 2, M
            A(:, J) = 0.5D0 * A(:, J) + 0.25D0 * A(:, J - 1)
     &              + 0.125D0 * B(:, J)
   40    CONTINUE
         A = DBLE(NINT(A * GRID)) / GRID
CHPF$ REDISTRIBUTE A(BLOCK, BLOCK) ONTO P
         WHERE (A .GT. 4.0D0) A = 4.0D0
         B = B + 0.5D0 * A
         WRITE (6, '(A, I10)') ' PASS', K
         WRITE (6, '(A, ES22.14)') ' SUM A         ', SUM(A)
         WRITE (6, '(A, ES22.14)') ' MAX A         ', MAXVAL(A)
         WRITE (6, '(A, ES22.14)') ' SUM B         ', SUM(B)
         WRITE (6, '(A, ES22.14)') ' A(N,M)        ', A(N, M)
   10 CONTINUE
      WRITE (6, '(A, ES22.14)') ' DOT COL 1     ',
     &   DOT_PRODUCT(A(:, 1), B(:, 1))
      END
C
      DOUBLE PRECISION FUNCTION FINIT(I, J)
      IMPLICIT NONE
      INTEGER I, J
      FINIT = DBLE(MOD(5 * I + 2 * J, 9)) + 0.03125D0 * DBLE(I + J)
      END
