! expect: error: invalid character '@' (not in the Fortran character set) at line 6
program invalid_character
  implicit none
  real :: x, y
  y = 2.0
  x = y @ 3.0
  print *, x
end program invalid_character
