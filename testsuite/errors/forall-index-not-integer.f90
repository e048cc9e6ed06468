! expect: error: FORALL index 'x' must be a scalar INTEGER variable, it is REAL, at line 6
program forall_real_index
  implicit none
  real :: x
  real :: a(10)
  forall (x = 1:10) a(nint(x)) = 0.0
  print *, a
end program forall_real_index
