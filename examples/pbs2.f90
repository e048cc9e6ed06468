! pbs2.f90 -- Purdue Benchmarking Set 2.
!
! Validation suite of hpfpredict (after Parashar & Hariri, Table 3: PBS 2).
! Computes
!     e* = sum over i = 1..N of  prod over j = 1..M of (1 + 0.5/(|i-j| + 0.001))
! The N x M factors are built by a FORALL, PRODUCT(DIM=2) forms the row
! products and SUM adds them.  The problem size is N*M elements (the suite
! sweeps 256 to 65536, i.e. N = M = 16 .. 256).
! Mapping: E(i,*) and the row products PR(i) aligned with a template of N,
! (BLOCK) on all processors: the products are local, the final sum is one
! global reduction.
! Checksum: e* itself (a sum of positive terms).
! Repeated NREP times (1 here: make validate raises it, so that a run is
! long enough to time), the checksum then NREP times e*.

program pbs2
  implicit none
  integer, parameter :: n = 128
  integer, parameter :: nrep = 1
  integer, parameter :: m = n
  real(8), dimension(n, m) :: e
  real(8), dimension(n) :: pr
  real(8) :: estar
  integer :: i, j, rep
!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE tmp(n)
!HPF$ DISTRIBUTE tmp(BLOCK) ONTO p
!HPF$ ALIGN e(i, *) WITH tmp(i)
!HPF$ ALIGN pr(i) WITH tmp(i)

  estar = 0.0d0
  do rep = 1, nrep
    forall (i = 1:n, j = 1:m) e(i, j) = 1.0d0 + 0.5d0/(dble(abs(i - j)) + 0.001d0)
    pr = product(e, dim = 2)
    estar = estar + sum(pr)
  end do

  print '(a,es22.14)', 'pbs2 checksum ', estar
end program pbs2
