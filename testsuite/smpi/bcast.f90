! bcast.f90 - the outside check of the communication model: broadcasts
! alone. 64 elements of a 1-D BLOCK array read on every processor, each
! broadcast from its owner.
program bcast
  implicit none
  integer, parameter :: n = 4096
  integer :: i, k
  real(8) :: a(n), x, t
!HPF$ DISTRIBUTE a(BLOCK)
  forall (i = 1:n) a(i) = dble(i)
  t = 0.0d0
  do k = 1, 64
    x = a(k*64 - 17)
    t = t + x
  end do
  print '(a,f20.3)', 't = ', t
end program bcast
