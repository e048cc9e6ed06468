! expect: error: REALIGN of a distributed array, at line 12 (HPF directive)
program realign_distributed
  implicit none
  integer, parameter :: n = 10
  real :: a(n), b(n)
  integer :: i
!HPF$ DYNAMIC a
!HPF$ DISTRIBUTE a(BLOCK)
!HPF$ DISTRIBUTE b(CYCLIC)
  a = 1.0
  b = 2.0
!HPF$ REALIGN a(i) WITH b(i)
  print *, sum(a + b)
end program
