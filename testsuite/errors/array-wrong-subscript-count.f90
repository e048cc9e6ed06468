! expect: error: 'a' has rank 2 but is referenced with 1 subscript at line 6
program wrong_subscript_count
  implicit none
  real :: a(10, 10)
  a = 0.0
  a(1) = 1.0
  print *, a(1, 1)
end program wrong_subscript_count
