! expect: error: pointer assignment '=>' is not supported in the HPF subset at line 5 (valid Fortran, refused as outside the subset)
program pointer_assignment
  implicit none
  real :: x
  p => x
  print *, x
end program pointer_assignment
