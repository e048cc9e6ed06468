! expect: error: AIMAG of a real, at line 5
program aimag_of_real
  implicit none
  real :: x
  x = aimag(1.0)
  print *, x
end program aimag_of_real
