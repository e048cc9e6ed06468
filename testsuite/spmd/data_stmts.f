C     DATA statements of an F77 code: scalars, a table, repeat counts, an
C     implied DO, named constants, values converted to the variable's type.
      PROGRAM DAT2
      INTEGER N
      PARAMETER (N = 6)
      INTEGER IA(N), I, K, ISUM
      REAL*8 W(N), X, Y
      REAL R(4)
      LOGICAL DEBUG
      CHARACTER*6 TITLE
      DATA IA /1, 2, 3*7, N/
      DATA (W(I), I = 1, N) /2*0.5D0, 4*1.25D0/
      DATA X /2/, Y /-3.5D0/, DEBUG /.FALSE./
      DATA TITLE /'TABLE'/
      DATA R /4*1/
      DATA K /0/
      ISUM = 0
      DO 10 I = 1, N
        ISUM = ISUM + IA(I)
   10 CONTINUE
      K = K + ISUM
      IF (.NOT. DEBUG) PRINT *, TITLE, ISUM, K
      PRINT *, X, Y, SUM(W), SUM(R)
      CALL TICK
      CALL TICK
      END
      SUBROUTINE TICK
      INTEGER NCALL
      DATA NCALL /0/
      NCALL = NCALL + 1
      PRINT *, 'CALL', NCALL
      END
