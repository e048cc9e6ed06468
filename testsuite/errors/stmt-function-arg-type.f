C expect: error: a statement function given an argument of another type than its dummy, at line 7
      PROGRAM SFT
      REAL*8 X, F
      REAL Y
      F(X) = X + 1.0D0
      Y = 2.0
      PRINT *, F(Y)
      END
