! expect: error: ELSE without an open block IF at line 6
program else_without_if
  implicit none
  real :: x
  x = 1.0
  else
  x = 2.0
  print *, x
end program else_without_if
