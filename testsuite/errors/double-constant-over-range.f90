! expect: error: a DOUBLE PRECISION constant over the range of kind 8, at line 5
program double_constant_over_range
  implicit none
  double precision :: d
  d = 1d400
  print *, d
end program double_constant_over_range
