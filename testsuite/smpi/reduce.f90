! reduce.f90 - the outside check of the communication model: reductions
! alone. 60 sums of a 1-D BLOCK array, each an allreduce of one value.
program reduce
  implicit none
  integer, parameter :: n = 4096
  integer :: i, it
  real(8) :: a(n), s, t
!HPF$ DISTRIBUTE a(BLOCK)
  forall (i = 1:n) a(i) = 1.0d0/dble(i)
  t = 0.0d0
  do it = 1, 60
    s = sum(a)
    t = t + s*dble(it)
  end do
  print '(a,f20.10)', 'total = ', t
end program reduce
