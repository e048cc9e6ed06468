! expect: error: a name a USE makes accessible declared again, at line 9
module params
  implicit none
  integer, parameter :: n = 8
end module params
program use_declared_again
  use params
  implicit none
  integer :: n
  print *, n
end program use_declared_again
