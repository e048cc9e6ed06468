! expect: error: an external procedure with an assumed-shape dummy called without its interface, at line 6
program assumed_shape_external
  implicit none
  real :: x(4)
  x = 1.0
  call scale(x)
  print *, x
end program assumed_shape_external

subroutine scale(a)
  implicit none
  real :: a(:)
  a = 2.0*a
end subroutine scale
