! expect: error: expression expected after '=' in the assignment at line 5
program missing_rhs
  implicit none
  real :: x
  x =
  print *, x
end program missing_rhs
