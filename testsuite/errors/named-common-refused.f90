! expect: error: named COMMON block '/blk/' is outside the subset (only blank COMMON is accepted), at line 5 (valid Fortran, refused as outside the subset)
program named_common_refused
  implicit none
  real :: x, y
  common /blk/ x, y
  x = 1.0
  y = 2.0
  print *, x + y
end program named_common_refused
