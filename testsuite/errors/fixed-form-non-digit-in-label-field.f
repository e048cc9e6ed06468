! expect: error: non-digit 'O' in the label field '1O' (columns 1-5) at line 7
C     Fixed form: the label is the letter O after 1, not the digit 0.
      PROGRAM LABDIG
      IMPLICIT NONE
      REAL X
      X = 1.0
1O    CONTINUE
      PRINT *, X
      END PROGRAM LABDIG
