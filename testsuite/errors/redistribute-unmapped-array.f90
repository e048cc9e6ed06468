! expect: error: REDISTRIBUTE of an array with no DISTRIBUTE, at line 9 (HPF directive)
! mapping only.
program redistribute_unmapped
  implicit none
  integer, parameter :: n = 10
  real :: a(n)
!HPF$ DYNAMIC a
  a = 1.0
!HPF$ REDISTRIBUTE a(BLOCK)
  print *, sum(a)
end program
