! expect: error: statement text begins in column 3, inside the label field (columns 1-5), at line 6
C     Fixed form: statements start in column 7.
      PROGRAM LABFLD
      IMPLICIT NONE
      REAL X
  X = 1.0
      PRINT *, X
      END PROGRAM LABFLD
