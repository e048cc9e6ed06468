! lfk1.f90 -- Livermore Fortran Kernel 1: hydro fragment.
!
! Validation suite of hpfpredict (after Parashar & Hariri, Table 3: LFK 1).
! Computes, for k = 1..N,
!     X(k) = Q + Y(k)*(R*ZX(k+10) + T*ZX(k+11))
! as one array assignment.  ZX is read at offsets +10 and +11, so with a
! BLOCK distribution each processor needs the first 11 elements of its right
! neighbour.  The kernel is repeated NREP times with a different Q each time.
! Mapping: X, Y and ZX aligned with a 1-D template, (BLOCK) on all processors.
! Checksum: the sum of X over all repetitions (every term is positive).

program lfk1
  implicit none
  integer, parameter :: n = 1024
  integer, parameter :: nrep = 10
  real(8), dimension(n) :: x, y
  real(8), dimension(n + 11) :: zx
  real(8) :: q, r, t, s
  integer :: k, rep
!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE tmp(n + 11)
!HPF$ DISTRIBUTE tmp(BLOCK) ONTO p
!HPF$ ALIGN x(k) WITH tmp(k)
!HPF$ ALIGN y(k) WITH tmp(k)
!HPF$ ALIGN zx(k) WITH tmp(k)

  forall (k = 1:n) y(k) = 1.0d0 + 0.5d0*sin(0.01d0*dble(k))
  forall (k = 1:n + 11) zx(k) = 2.0d0 + cos(0.003d0*dble(k))
  r = 0.2d0
  t = 0.3d0
  s = 0.0d0
  do rep = 1, nrep
    q = 0.5d0 + 0.01d0*dble(rep)
    x = q + y*(r*zx(11:n + 10) + t*zx(12:n + 11))
    s = s + sum(x)
  end do

  print '(a,es22.14)', 'lfk1 checksum ', s
end program lfk1
