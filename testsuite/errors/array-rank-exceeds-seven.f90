! expect: error: array 'a' has rank 8, more than the maximum rank 7, at line 4 (valid Fortran 2008, which allows rank 15; refused as outside the subset)
program rank_eight
  implicit none
  real :: a(2, 2, 2, 2, 2, 2, 2, 2)
  a = 1.0
  print *, sum(a)
end program rank_eight
