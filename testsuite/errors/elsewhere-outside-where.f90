! expect: error: ELSEWHERE outside a WHERE construct at line 6
program elsewhere_outside_where
  implicit none
  real :: a(5)
  a = 1.0
  elsewhere
  a = 0.0
  print *, a
end program elsewhere_outside_where
