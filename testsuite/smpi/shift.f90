! shift.f90 - the outside check of the communication model: overlap
! shifts alone. A 1-D BLOCK array relaxed 40 times, each step a shift of
! one cell each way; the result printed once at the end.
program shift
  implicit none
  integer, parameter :: n = 20000
  integer :: i, it
  real(8) :: a(n), b(n)
!HPF$ DISTRIBUTE a(BLOCK)
!HPF$ ALIGN b(i) WITH a(i)
  forall (i = 1:n) a(i) = dble(mod(i, 17))
  b = a
  do it = 1, 40
    forall (i = 2:n-1) b(i) = 0.5d0*a(i) + 0.25d0*(a(i-1) + a(i+1))
    a = b
  end do
  print '(a,f20.6)', 'a(n/2) = ', a(n/2)
end program shift
