! expect: error: EOSHIFT given BOUNDARY and DIM by keyword but not ARRAY, at line 6
program intrinsic_missing_required_argument
  implicit none
  real :: a(4), b(4)
  a = 1.0
  b = eoshift(boundary = 0.0, dim = 1)
  print *, b
end program intrinsic_missing_required_argument
