! expect: error: USE ONLY naming what the module does not have, at line 7
module params
  implicit none
  integer, parameter :: n = 8
end module params
program use_only_not_in_module
  use params, only: n, m
  implicit none
  print *, n
end program use_only_not_in_module
