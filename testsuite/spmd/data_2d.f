C     DATA_2D - tables given by DATA as Fortran 77 codes give them: a
C     rank-2 coefficient table and an INTEGER table in array element
C     order, a loop bound taken from the table, several objects in one
C     set, and a distributed array initialized from the table.
      PROGRAM DATA2D
      INTEGER N
      PARAMETER (N = 12)
      REAL C(3, 2), X(N), TOT
      INTEGER NSTEP(2, 2), I, J, K
      DOUBLE PRECISION EPS, W
CHPF$ DISTRIBUTE X(BLOCK)
      DATA C /0.25, 0.5, 0.25, -1.0, 2.0, -1.0/
      DATA NSTEP /2, 3, 5, 7/, EPS, W /1.0D-6, 0.5D0/
      DO 10 I = 1, N
         X(I) = REAL(I)
   10 CONTINUE
      DO 30 K = 1, NSTEP(2, 1)
         DO 20 J = 2, N - 1
            X(J) = C(1, 1) * X(J - 1) + C(2, 1) * X(J)
     &           + C(3, 1) * X(J + 1)
   20    CONTINUE
   30 CONTINUE
      TOT = SUM(X)
      WRITE (6, 100) TOT, NSTEP
  100 FORMAT (' total ', F10.4, ' steps ', 4I3)
      WRITE (6, 110) ((C(I, J), I = 1, 3), J = 1, 2), EPS, W
  110 FORMAT (6F6.2, E10.2, F5.2)
      END
