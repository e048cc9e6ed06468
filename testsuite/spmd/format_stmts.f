C     FORMAT statements in the style of F77 codes: shared formats, groups,
C     slashes, repeat counts (3ES, 2EN too), a continued FORMAT, FMT=,
C     READ by format.
      PROGRAM FMT2
      INTEGER N, I, K(4)
      REAL*8 A(4), S
      CHARACTER*8 NAME
CHPF$ DISTRIBUTE A(BLOCK)
      READ (5, 90) N
      NAME = 'ALPHA'
   90 FORMAT (I5)
      DO 10 I = 1, 4
        A(I) = N * I + 0.25D0
        K(I) = I * I
   10 CONTINUE
      S = 0.0D0
      DO 20 I = 1, 4
        S = S + A(I)
   20 CONTINUE
      WRITE (6, 100) NAME, N
      WRITE (6, 110) (I, A(I), I = 1, 4)
      WRITE (6, FMT=120) S
      WRITE (6, 130) K
      WRITE (6, 150) A(1), A(2), A(3), A(4)
      PRINT 140, 'DONE', N
      CALL SHOW(S)
  100 FORMAT (1X, 'RUN ''', A, ''' N =', I4 /
     &        1X, 20('-'))
  110 FORMAT (2(1X, I2, F9.3))
  120 FORMAT (1X, 'SUM = ', 1PE14.6)
  130 FORMAT (1X, 4I5)
  140 FORMAT (1X, A, ':', I3)
  150 FORMAT (1X, 2ES14.6, 1X, 2EN12.3)
      END
      SUBROUTINE SHOW(X)
      REAL*8 X
      WRITE (*, 10) X, X / 2
   10 FORMAT (' HALF OF ', F8.2, ' IS ', F8.2)
      END
