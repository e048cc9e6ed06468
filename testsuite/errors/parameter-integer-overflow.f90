! expect: error: 2**31 overflows a default INTEGER PARAMETER, at line 4
program parameter_integer_overflow
  implicit none
  integer, parameter :: n = 2**31
  print *, n
end program parameter_integer_overflow
