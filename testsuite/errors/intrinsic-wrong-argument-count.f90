! expect: error: intrinsic MOD takes 2 arguments, 1 given, at line 6
program intrinsic_argument_count
  implicit none
  integer :: a, k
  a = 7
  k = mod(a)
  print *, k
end program intrinsic_argument_count
