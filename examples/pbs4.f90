! pbs4.f90 -- Purdue Benchmarking Set 4.
!
! Validation suite of hpfpredict (after Parashar & Hariri, Table 3: PBS 4).
! Computes R = sum over i = 1..N of 1/x(i), NREP times with x shifted
! between repetitions.  Elementwise reciprocals, then one global sum.
! Mapping: X aligned with a 1-D template, (BLOCK) on all processors.
! Checksum: the sum of R over the repetitions (all terms positive).

program pbs4
  implicit none
  integer, parameter :: n = 1024
  integer, parameter :: nrep = 10
  real(8), dimension(n) :: x
  real(8) :: r, s
  integer :: i, rep
!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE tmp(n)
!HPF$ DISTRIBUTE tmp(BLOCK) ONTO p
!HPF$ ALIGN x(i) WITH tmp(i)

  forall (i = 1:n) x(i) = 1.0d0 + 0.25d0*dble(mod(i, 17)) + 0.001d0*dble(i)
  s = 0.0d0
  do rep = 1, nrep
    r = sum(1.0d0/x)
    s = s + r
    x = x + 0.5d0
  end do

  print '(a,es22.14)', 'pbs4 checksum ', s
end program pbs4
