! lfk3.f90 -- Livermore Fortran Kernel 3: inner product.
!
! Validation suite of hpfpredict (after Parashar & Hariri, Table 3: LFK 3).
! Computes Q = sum over k of Z(k)*X(k) with the SUM reduction, NREP times
! with X rescaled between repetitions.  Each processor forms its partial
! sum; one global sum combines them.
! Mapping: Z and X aligned with a 1-D template, (BLOCK) on all processors.
! Checksum: the sum of Q over the repetitions (all terms positive).

program lfk3
  implicit none
  integer, parameter :: n = 1024
  integer, parameter :: nrep = 10
  real(8), dimension(n) :: z, x
  real(8) :: q, s
  integer :: k, rep
!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE tmp(n)
!HPF$ DISTRIBUTE tmp(BLOCK) ONTO p
!HPF$ ALIGN z(k) WITH tmp(k)
!HPF$ ALIGN x(k) WITH tmp(k)

  forall (k = 1:n) z(k) = 1.0d0 + 0.25d0*sin(0.02d0*dble(k))
  forall (k = 1:n) x(k) = 0.5d0 + 1.0d0/dble(k)
  s = 0.0d0
  do rep = 1, nrep
    q = sum(z*x)
    s = s + q
    x = 1.001d0*x
  end do

  print '(a,es22.14)', 'lfk3 checksum ', s
end program lfk3
