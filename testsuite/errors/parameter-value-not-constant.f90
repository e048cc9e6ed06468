! expect: error: the value of PARAMETER 'n' is not a constant expression ('m' is a variable) at line 5
program parameter_not_constant
  implicit none
  integer :: m
  integer, parameter :: n = m
  m = 3
  print *, n, m
end program parameter_not_constant
