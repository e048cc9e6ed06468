C expect: error: DATA for an array of rank 2, at line 4
      PROGRAM D2
      INTEGER M(2, 2)
      DATA M /1, 2, 3, 4/
      PRINT *, M
      END
