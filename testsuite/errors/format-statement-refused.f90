! expect: error: FORMAT statement is outside the subset, at line 7 (valid Fortran, refused as outside the subset)
program format_refused
  implicit none
  real :: x
  x = 1.5
  write (*, 100) x
100 format (f8.3)
end program format_refused
