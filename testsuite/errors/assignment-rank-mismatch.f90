! expect: error: rank mismatch in assignment: the left side has rank 1, the right side rank 2, at line 6
program rank_mismatch
  implicit none
  real :: a(10), b(10, 10)
  b = 1.0
  a = b
  print *, a
end program rank_mismatch
