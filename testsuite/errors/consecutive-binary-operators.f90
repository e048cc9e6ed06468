! expect: error: operand expected between '*' and '/' at line 7
program two_operators
  implicit none
  real :: a, b, c
  b = 6.0
  c = 2.0
  a = b * / c
  print *, a
end program two_operators
