! expect: error: REDISTRIBUTE of an aligned array, at line 13 (HPF directive)
! only through what it is aligned with (or by REALIGN).
program redistribute_aligned
  implicit none
  integer, parameter :: n = 10
  real :: a(n), b(n)
  integer :: i
!HPF$ DYNAMIC a, b
!HPF$ DISTRIBUTE a(BLOCK)
!HPF$ ALIGN b(i) WITH a(i)
  a = 1.0
  b = 2.0
!HPF$ REDISTRIBUTE b(CYCLIC)
  print *, sum(a + b)
end program
