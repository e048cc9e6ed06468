C     Statement functions of an F77 code: typed by declaration and
C     implicitly, one using another, one using a variable of the unit,
C     referenced in loops over a mapped array and in a PRINT.
      PROGRAM SF
      INTEGER N, I
      PARAMETER (N = 8)
      REAL*8 A(N), B(N), C, Q, X, Y
      REAL*8 POLY, AVG, SQ
CHPF$ DISTRIBUTE A(BLOCK)
CHPF$ ALIGN B(I) WITH A(I)
      POLY(X) = 1.0D0 + X * (0.5D0 + X * 0.25D0)
      AVG(X, Y) = 0.5D0 * (X + Y) + C
      SQ(X) = X * X
      C = 0.125D0
      DO 10 I = 1, N
        A(I) = POLY(DBLE(I) / 4.0D0)
   10 CONTINUE
      DO 20 I = 1, N
        B(I) = AVG(A(I), SQ(A(I)))
   20 CONTINUE
      Q = 0.0D0
      DO 30 I = 1, N
        Q = Q + B(I)
   30 CONTINUE
      PRINT '(F14.6)', Q, POLY(2.0D0), SQ(3.0D0)
      END
