! expect: error: end of file reached inside PROGRAM missing_end (opened at line 2): END PROGRAM expected, reported at the end of file (after line 6)
program missing_end
  implicit none
  integer :: k
  k = 1
  print *, k
