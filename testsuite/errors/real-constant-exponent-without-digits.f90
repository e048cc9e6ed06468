! expect: error: real constant '1.0e+' has no digits in its exponent at line 5
program bad_exponent
  implicit none
  real :: x
  x = 1.0e+
  print *, x
end program bad_exponent
