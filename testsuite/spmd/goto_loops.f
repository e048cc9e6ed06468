C     GOTO_LOOPS - loops made of IF and GOTO, as Fortran 77 codes
C     write them: a relaxation sweep repeated until it converges, a
C     Newton iteration, a bisection, a counting loop closed by an
C     unconditional GOTO and left by a forward one, a loop inside a DO
C     loop, and a GOTO back to the top of a loop from its middle.
      PROGRAM GLOOPS
      INTEGER N
      PARAMETER (N = 64)
      REAL U(N), V(N), RES, TOL
      DOUBLE PRECISION X, FX, A, B, C
      INTEGER I, IT, K, M, J, NODD
      COMMON /CTL/ TOL, IT
CHPF$ DISTRIBUTE U(BLOCK)
CHPF$ ALIGN V(I) WITH U(I)
      DATA A, B /1.0D0, 2.0D0/
      TOL = 1.0E-3
      DO 5 I = 1, N
         U(I) = 0.0
    5 CONTINUE
      U(N) = 1.0
      IT = 0
C     relaxation until the largest change is below TOL
   10 CONTINUE
      IT = IT + 1
      FORALL (I = 2:N-1) V(I) = 0.5 * (U(I-1) + U(I+1))
      V(1) = U(1)
      V(N) = U(N)
      RES = MAXVAL(ABS(V - U))
      U = V
      IF (RES .GT. TOL .AND. IT .LT. 500) GOTO 10
      WRITE (6, 100) IT, RES
  100 FORMAT (' sweeps ', I4, ' change ', E10.3)
C     Newton for sqrt(2)
      X = 1.0D0
   20 FX = X * X - 2.0D0
      X = X - FX / (2.0D0 * X)
      IF (ABS(FX) .GT. 1.0D-12) GO TO 20
      WRITE (6, 110) X
  110 FORMAT (' newton ', F12.8)
C     bisection for the root of x**3 - x - 2 on [1, 2]
      K = 0
   30 C = 0.5D0 * (A + B)
      K = K + 1
      IF ((C**3 - C - 2.0D0) * (A**3 - A - 2.0D0) .LT. 0.0D0) THEN
         B = C
      ELSE
         A = C
      END IF
      IF (B - A .GT. 1.0D-6) GOTO 30
      WRITE (6, 120) K, C
  120 FORMAT (' bisection ', I3, F12.6)
C     a counting loop: unconditional GOTO back, forward GOTO out
      M = 0
   40 M = M + 3
      IF (M .GE. 50) GOTO 45
      GOTO 40
   45 WRITE (6, *) 'counted to', M
C     a loop inside a DO loop: odd numbers below I, for each I
      NODD = 0
      DO 60 I = 1, 6
         J = 1
   50    IF (J .GE. I) GOTO 60
         NODD = NODD + 1
         J = J + 2
         GOTO 50
   60 CONTINUE
      WRITE (6, *) 'odd numbers', NODD
C     back to the top from the middle: skip multiples of 4
      J = 0
      K = 0
   70 J = J + 1
      IF (MOD(J, 4) .EQ. 0) GOTO 70
      K = K + J
      IF (J .LT. 20) GOTO 70
      WRITE (6, *) 'sum without multiples of 4', K
      WRITE (6, 130) (U(I), I = 1, N, 16)
  130 FORMAT (4F9.4)
      END
