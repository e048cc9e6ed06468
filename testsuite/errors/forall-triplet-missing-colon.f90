! expect: error: ':' expected in the FORALL index triplet 'i = 1, 10' (DO-style comma instead of a colon) at line 6
program forall_missing_colon
  implicit none
  integer :: i
  real :: a(10)
  forall (i = 1, 10) a(i) = real(i)
  print *, a
end program forall_missing_colon
