! expect: error: the condition of the logical IF is INTEGER, a scalar LOGICAL expression is required, at line 6
program if_condition_integer
  implicit none
  integer :: n
  n = 1
  if (n) print *, n
end program if_condition_integer
