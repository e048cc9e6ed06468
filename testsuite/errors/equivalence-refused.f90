! expect: error: EQUIVALENCE is outside the subset, at line 5 (valid Fortran, refused as outside the subset)
program equivalence_refused
  implicit none
  real :: a(4), b(4)
  equivalence (a, b)
  a = 1.0
  print *, b
end program equivalence_refused
