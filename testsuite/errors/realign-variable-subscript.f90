! expect: error: a REALIGN subscript naming a variable, at line 14 (HPF directive)
! when the variable does.
program realign_variable
  implicit none
  integer, parameter :: n = 10
  real :: a(n), b(n + 5)
  integer :: i, k
!HPF$ DYNAMIC a
!HPF$ DISTRIBUTE b(BLOCK)
!HPF$ ALIGN a(i) WITH b(i)
  k = 3
  a = 1.0
  b = 2.0
!HPF$ REALIGN a(i) WITH b(i + k)
  print *, sum(a) + sum(b)
end program
