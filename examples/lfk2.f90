! lfk2.f90 -- Livermore Fortran Kernel 2: ICCG excerpt (incomplete Cholesky
! conjugate gradient).
!
! Validation suite of hpfpredict (after Parashar & Hariri, Table 3: LFK 2).
! The halving sweep: level after level, every second element of the
! previous level of X (a stride-2 section) is combined with its two
! neighbours and V,
!     X(i) = X(k) - V(k)*X(k-1) - V(k+1)*X(k+1),  k = IPNT+2, IPNTP, 2
! and written contiguously after the level (i = IPNTP+2, ...).  Each level
! is one array assignment over strided sections of X and V; the level
! length halves until it reaches one.  Levels occupy X(1:2N).
! The sweep is repeated NREP times, each time from new initial data.
! Mapping: X and V aligned with a 1-D template of 2N, (BLOCK) on all
! processors.
! Checksum: the sum over repetitions of the values the sweeps computed
! (all positive).

program lfk2
  implicit none
  integer, parameter :: n = 1024
  integer, parameter :: nrep = 10
  real(8), dimension(2*n) :: x, v
  real(8) :: s
  integer :: k, rep, ii, ipnt, ipntp, m

!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE tmp(2*n)
!HPF$ DISTRIBUTE tmp(BLOCK) ONTO p
!HPF$ ALIGN x(k) WITH tmp(k)
!HPF$ ALIGN v(k) WITH tmp(k)

  forall (k = 1:2*n) v(k) = 0.01d0 + 0.005d0*(1.0d0 + sin(0.07d0*dble(k)))
  s = 0.0d0
  do rep = 1, nrep
    forall (k = 1:2*n) x(k) = 1.0d0 + 0.1d0*cos(0.013d0*dble(k*rep))
    ii = n
    ipntp = 0
    do while (ii > 1)
      ipnt = ipntp
      ipntp = ipntp + ii
      ii = ii/2
      m = (ipntp - ipnt)/2
      x(ipntp + 2:ipntp + 1 + m) = x(ipnt + 2:ipntp:2)                       &
                                 - v(ipnt + 2:ipntp:2)*x(ipnt + 1:ipntp - 1:2) &
                                 - v(ipnt + 3:ipntp + 1:2)*x(ipnt + 3:ipntp + 1:2)
    end do
    s = s + sum(x(n + 2:2*n))
  end do

  print '(a,es22.14)', 'lfk2 checksum ', s
end program lfk2
