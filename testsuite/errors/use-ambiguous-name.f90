! expect: error: a name two modules give, referenced, at line 15
module mod_a
  implicit none
  integer, parameter :: n = 8
end module mod_a
module mod_b
  implicit none
  integer, parameter :: n = 5
end module mod_b
program use_ambiguous_name
  use mod_a
  use mod_b
  implicit none
  integer :: k
  k = n
  print *, k
end program use_ambiguous_name
