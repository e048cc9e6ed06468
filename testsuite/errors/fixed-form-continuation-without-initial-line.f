! expect: error: continuation line (mark '&' in column 6) with no initial line before it, at line 3
C     Fixed form: the first statement line is marked as a continuation.
     &PROGRAM CONTIN
      IMPLICIT NONE
      PRINT *, 'HELLO'
      END PROGRAM CONTIN
