! expect: error: an executable statement in a module, at line 5
module state
  implicit none
  integer :: k
  k = 3
end module state
program module_executable_statement
  use state
  implicit none
  print *, k
end program module_executable_statement
