! expect: error: USE ONLY naming a PRIVATE entity of the module, at line 10
module hidden
  implicit none
  private
  public :: k
  integer, parameter :: k = 3, secret = 4
end module hidden

program use_only_private
  use hidden, only: k, secret
  implicit none
  print *, k + secret
end program use_only_private
