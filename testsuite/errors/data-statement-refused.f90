! expect: error: DATA statement is outside the subset, at line 5 (valid Fortran, refused as outside the subset)
program data_refused
  implicit none
  real :: x
  data x / 1.5 /
  print *, x
end program data_refused
