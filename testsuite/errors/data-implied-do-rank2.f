C     expect: error: DATA with an implied DO over an array of rank 2, at line 4
      PROGRAM D2
      INTEGER I, J, M(2, 2)
      DATA ((M(I, J), I = 1, 2), J = 1, 2) /1, 2, 3, 4/
      PRINT *, M
      END
