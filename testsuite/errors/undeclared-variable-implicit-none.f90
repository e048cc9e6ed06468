! expect: error: 'y' is not declared (IMPLICIT NONE is in effect) at line 6
program undeclared_variable
  implicit none
  real :: x
  x = 1.0
  y = x + 1.0
  print *, x
end program undeclared_variable
