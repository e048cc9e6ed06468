! expect: error: cannot assign to the named constant (PARAMETER) 'n' at line 5
program parameter_assigned
  implicit none
  integer, parameter :: n = 10
  n = 20
  print *, n
end program parameter_assigned
