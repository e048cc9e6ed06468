! pbs3.f90 -- Purdue Benchmarking Set 3.
!
! Validation suite of hpfpredict (after Parashar & Hariri, Table 3: PBS 3).
! Computes
!     S = sum over i = 1..N of  prod over j = 1..M of a(i,j)
! for a matrix a of values close to one (so the products neither overflow
! nor underflow).  PRODUCT(DIM=2) forms the row products, SUM adds them.
! The problem size is N*M elements (the suite sweeps 256 to 65536, i.e.
! N = M = 16 .. 256).
! Mapping: A(i,*) and the row products PR(i) aligned with a template of N,
! (BLOCK) on all processors.
! Checksum: S (a sum of positive terms).
! Repeated NREP times (1 here: make validate raises it, so that a run is
! long enough to time), the checksum then NREP times S.

program pbs3
  implicit none
  integer, parameter :: n = 128
  integer, parameter :: nrep = 1
  integer, parameter :: m = n
  real(8), dimension(n, m) :: a
  real(8), dimension(n) :: pr
  real(8) :: s
  integer :: i, j, rep
!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE tmp(n)
!HPF$ DISTRIBUTE tmp(BLOCK) ONTO p
!HPF$ ALIGN a(i, *) WITH tmp(i)
!HPF$ ALIGN pr(i) WITH tmp(i)

  s = 0.0d0
  do rep = 1, nrep
    forall (i = 1:n, j = 1:m) a(i, j) = 1.0d0 + 0.01d0*sin(dble(i) + 0.5d0*dble(j))  &
                                      + 0.002d0*dble(mod(i*j, 7))/dble(m)
    pr = product(a, dim = 2)
    s = s + sum(pr)
  end do

  print '(a,es22.14)', 'pbs3 checksum ', s
end program pbs3
