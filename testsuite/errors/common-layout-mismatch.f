C expect: error: a COMMON block declared with another type at the same place in another unit, at line 10
      PROGRAM CMIS
      INTEGER N
      COMMON /P/ N
      N = 3
      CALL S
      END
      SUBROUTINE S
      REAL X
      COMMON /P/ X
      PRINT *, X
      END
