C     Named COMMON blocks of an F77 code: run parameters in /PARAMS/, a
C     work array and counters in /WORK/, blank COMMON beside them; a
C     loop bound from COMMON (critical for the prediction), a subroutine
C     that updates a counter the main program reads.
      PROGRAM CMN
      INTEGER N, NIT, ICOUNT, I, IT
      REAL*8 W(16), TOL, SCALE
      REAL*8 A(16)
      COMMON /PARAMS/ N, NIT, TOL
      COMMON /WORK/ W, ICOUNT
      COMMON SCALE
CHPF$ DISTRIBUTE A(BLOCK)
      CALL SETUP
      A = 0.0D0
      DO 10 I = 1, N
        A(I) = W(I) * SCALE
   10 CONTINUE
      DO 20 IT = 1, NIT
        CALL STEP
   20 CONTINUE
      WRITE (6, '(A, I4, F10.3, I4)') ' N SUM COUNT', N, SUM(A),
     &  ICOUNT
      END
      SUBROUTINE SETUP
      INTEGER N, NIT, ICOUNT, I
      REAL*8 W(16), TOL, SCALE
      COMMON /PARAMS/ N, NIT, TOL
      COMMON /WORK/ W, ICOUNT
      COMMON SCALE
      N = 12
      NIT = 5
      TOL = 1.0D-6
      SCALE = 0.5D0
      ICOUNT = 0
      DO 10 I = 1, 16
        W(I) = I
   10 CONTINUE
      END
      SUBROUTINE STEP
      INTEGER NN, NI, IC
      REAL*8 WK(16), T
      COMMON /PARAMS/ NN, NI, T
      COMMON /WORK/ WK, IC
      IC = IC + 1
      WK(IC) = WK(IC) + NN
      END
