! expect: error: INDEPENDENT takes NEW (HPF 1.0) or REDUCTION (HPF 2.0), not 'private' at line 8
program indep_clause
  implicit none
  integer, parameter :: n = 16
  real :: a(n)
  integer :: i
!HPF$ DISTRIBUTE A(BLOCK)
!HPF$ INDEPENDENT, PRIVATE(I)
  do i = 1, n
    a(i) = real(i)
  end do
  print *, sum(a)
end program indep_clause
