! lfk22.f90 -- Livermore Fortran Kernel 22: Planckian distribution.
!
! Validation suite of hpfpredict (after Parashar & Hariri, Table 3: LFK 22).
! For k = 1..N:
!     Y(k) = U(k)/V(k)
!     W(k) = X(k)/(EXP(Y(k)) - 1)
! with Y limited to EXPMAX by a WHERE statement.  Purely elementwise: the
! kernel needs no communication.  Repeated NREP times with X rescaled.
! Mapping: U, V, X, Y and W aligned with a 1-D template, (BLOCK) on all
! processors.
! Checksum: the sum of W over the repetitions (all positive).

program lfk22
  implicit none
  integer, parameter :: n = 1024
  integer, parameter :: nrep = 10
  real(8), dimension(n) :: u, v, x, y, w
  real(8) :: expmax, s
  integer :: k, rep
!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE tmp(n)
!HPF$ DISTRIBUTE tmp(BLOCK) ONTO p
!HPF$ ALIGN u(k) WITH tmp(k)
!HPF$ ALIGN v(k) WITH tmp(k)
!HPF$ ALIGN x(k) WITH tmp(k)
!HPF$ ALIGN y(k) WITH tmp(k)
!HPF$ ALIGN w(k) WITH tmp(k)

  expmax = 20.0d0
  forall (k = 1:n) v(k) = 0.5d0 + 0.25d0*cos(0.011d0*dble(k))
  forall (k = 1:n) u(k) = v(k)*(0.1d0 + 25.0d0*dble(k)/dble(n))
  forall (k = 1:n) x(k) = 1.0d0 + 0.001d0*dble(k)
  s = 0.0d0
  do rep = 1, nrep
    y = u/v
    where (y > expmax) y = expmax
    w = x/(exp(y) - 1.0d0)
    s = s + sum(w)
    x = 1.01d0*x
  end do

  print '(a,es22.14)', 'lfk22 checksum ', s
end program lfk22
