! pi.f90 -- approximation of pi by n-point quadrature.
!
! Validation suite of hpfpredict (after Parashar & Hariri, Table 3: PI).
! The area under 4/(1 + x**2) on [0, 1] is pi.  With N midpoints
! x(i) = (i - 1/2)/N the midpoint rule gives
!     PI ~ (1/N) * sum over i of 4/(1 + x(i)**2)
! Elementwise work on the distributed points, then one global sum; the
! whole estimate is repeated NREP times so that a run is long enough to time.
! Mapping: X and F aligned with a 1-D template, (BLOCK) on all processors.
! Checksum: the last estimate of pi.

program pi
  implicit none
  integer, parameter :: n = 2048
  integer, parameter :: nrep = 10
  real(8), dimension(n) :: x, f
  real(8) :: h, estimate
  integer :: i, rep
!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE tmp(n)
!HPF$ DISTRIBUTE tmp(BLOCK) ONTO p
!HPF$ ALIGN x(i) WITH tmp(i)
!HPF$ ALIGN f(i) WITH tmp(i)

  h = 1.0d0/dble(n)
  estimate = 0.0d0
  do rep = 1, nrep
    forall (i = 1:n) x(i) = h*(dble(i) - 0.5d0)
    f = 4.0d0/(1.0d0 + x*x)
    estimate = h*sum(f)
  end do

  print '(a,es22.14)', 'pi checksum ', estimate
end program pi
