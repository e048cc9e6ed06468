! hand.f90 -- the forecasting test's program whose equations are worked
! out by hand (testsuite/forecast.test): a BLOCK-distributed array
! smoothed M times by a three-point stencil over its interior.
!   a = 1        ceil(n/P) elements on the busiest processor
!   the FORALL   m times bshare(2, n - 1, n, P): 34 at n = 100, P = 3
!                (blocks of 34: 1-34, 35-68, 69-100; 2..99 gives 33, 34, 31)
!   its exchange m times min(2, P - 1) messages of one REAL(8): 8 bytes
program hand
  implicit none
  integer, parameter :: n = 100, m = 7
  real(8) :: a(n), b(n)
  integer :: i, k
!HPF$ DISTRIBUTE a(BLOCK)
!HPF$ ALIGN b(i) WITH a(i)
  a = 1.0d0
  b = 0.0d0
  do k = 1, m
    forall (i = 2:n - 1) b(i) = 0.5d0*(a(i - 1) + a(i + 1))
    a = b
  end do
  print '(a,es22.14)', 'hand checksum ', sum(a)
end program hand
