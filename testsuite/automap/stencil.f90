! STENCIL -- point Jacobi relaxation for the Poisson equation on the unit
! square, 5-point stencil, a fixed number of sweeps and no convergence
! test, as in the relaxation kernels of the benchmark sets of the early
! 1990s.  The boundary is held at 1 on the side i = 1 and at 0 on the
! other three; the source is a dipole, +1 and -1 (already scaled by h**2)
! at two interior points.
!
! Mapping as written: u (CYCLIC, CYCLIC) onto the 2 x 2 arrangement p,
! unew and f aligned with it.  Every shift of the stencil then reads an
! element that another processor owns; BLOCK in either dimension (or
! both) moves only the block boundaries.
!
! Output: the largest change of the last sweep, checksums of u and a few
! of its values.  The checksums are of u rounded to a 2**-24 grid, which
! are whole numbers once scaled, so their sums are exact in any order.
program stencil
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: n = 64, nsweep = 40
  real(dp), parameter :: grid = 16777216.0_dp
  real(dp) :: u(n, n), unew(n, n), f(n, n)
  real(dp) :: change, csum, cwsum
  integer :: i, j, it
!HPF$ PROCESSORS p(2, 2)
!HPF$ DISTRIBUTE u(CYCLIC, CYCLIC) ONTO p
!HPF$ ALIGN unew(i, j) WITH u(i, j)
!HPF$ ALIGN f(i, j) WITH u(i, j)

  ! initial guess, boundary values and the source
  u = 0.0_dp
  u(1, :) = 1.0_dp
  f = 0.0_dp
  f(n/4, n/2) = 1.0_dp
  f(3*n/4, n/2) = -1.0_dp
  unew = u

  change = 0.0_dp
  do it = 1, nsweep
     forall (i = 2:n-1, j = 2:n-1)
        unew(i, j) = 0.25_dp * (u(i-1, j) + u(i+1, j) + u(i, j-1) &
                                + u(i, j+1) + f(i, j))
     end forall
     change = maxval(abs(unew(2:n-1, 2:n-1) - u(2:n-1, 2:n-1)))
     u(2:n-1, 2:n-1) = unew(2:n-1, 2:n-1)
  end do

  csum = sum(anint(u * grid)) / grid
  cwsum = sum(anint(u(:, n/2) * grid)) / grid
  write (*, '(a, 2i10)') 'stencil n, sweeps', n, nsweep
  write (*, '(a, es22.14)') 'last change      ', change
  write (*, '(a, es22.14)') 'sum u            ', csum
  write (*, '(a, es22.14)') 'sum centre column', cwsum
  write (*, '(a, 3es22.14)') 'u at three points', u(2, n/2), u(n/2, n/2), &
       u(3*n/4, n/2)
end program stencil
