! expect: error: 'x' is a scalar and cannot be subscripted at line 6
program scalar_subscripted
  implicit none
  real :: x, y
  x = 1.0
  y = x(2)
  print *, y
end program scalar_subscripted
