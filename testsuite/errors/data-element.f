C     expect: error: DATA for an array element, at line 4 (valid Fortran, refused as outside the subset)
      PROGRAM DELEM
      INTEGER M(4)
      DATA M(2) /5/
      PRINT *, M(2)
      END
