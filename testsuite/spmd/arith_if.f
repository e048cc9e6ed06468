C     Arithmetic IF and computed GOTO of an F77 code (forward jumps):
C     a sign test on REAL and INTEGER expressions, a dispatch on a
C     counter, a computed GOTO whose index is out of range (falls
C     through), all in a loop over the elements of a mapped array.
      PROGRAM ARITH2
      INTEGER N, I, K, NNEG, NZER, NPOS, M(3)
      PARAMETER (N = 9)
      REAL*8 A(N)
CHPF$ DISTRIBUTE A(BLOCK)
      DO 5 I = 1, N
        A(I) = I - 4.0D0
    5 CONTINUE
      NNEG = 0
      NZER = 0
      NPOS = 0
      M(1) = 0
      M(2) = 0
      M(3) = 0
      DO 20 I = 1, N
        IF (A(I)) 11, 12, 13
   11   NNEG = NNEG + 1
        GO TO 14
   12   NZER = NZER + 1
        GO TO 14
   13   NPOS = NPOS + 1
   14   K = MOD(I, 4)
        GO TO (15, 16, 17), K
        GO TO 20
   15   M(1) = M(1) + I
        GO TO 20
   16   M(2) = M(2) + I
        GO TO 20
   17   M(3) = M(3) + I
   20 CONTINUE
      IF (NPOS - 5) 30, 31, 31
   30 PRINT *, 'FEW'
   31 PRINT *, NNEG, NZER, NPOS, M
      END
