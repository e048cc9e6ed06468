C expect: error: a Hollerith edit descriptor in a FORMAT statement, at line 5
      PROGRAM HOLL
      INTEGER I
      I = 3
  100 FORMAT (5HI IS , I4)
      WRITE (6, 100) I
      END
