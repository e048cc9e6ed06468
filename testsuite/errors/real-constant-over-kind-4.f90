! expect: error: a REAL constant over the range of kind 4, at line 5
program real_constant_over_kind_4
  implicit none
  real :: x
  x = 1e39
  print *, x
end program real_constant_over_kind_4
