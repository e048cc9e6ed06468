! two_loops.f90 -- two phases of known weights for the software probes:
! a loop of 100 iterations, then one of 300 whose iterations do the same
! operations on another array (testsuite/probes.test expects the phases
! weighted 0.25 and 0.75, within the small set-up).
program two_loops
  implicit none
  integer, parameter :: n = 2000
  real(8), dimension(n) :: a, b
  integer :: i, it
!HPF$ PROCESSORS p(2)
!HPF$ DISTRIBUTE a(BLOCK) ONTO p
!HPF$ ALIGN b(i) WITH a(i)

  forall (i = 1:n) a(i) = dble(i)
  forall (i = 1:n) b(i) = dble(n - i)
  do it = 1, 100
    forall (i = 1:n) a(i) = a(i)*0.5d0 + 1.0d0
  end do
  do it = 1, 300
    forall (i = 1:n) b(i) = b(i)*0.25d0 + 2.0d0
  end do
  print '(a,2f14.6)', 'two_loops ', sum(a), sum(b)
end program two_loops
