! jacobi_conv.f90 -- Jacobi relaxation for the Poisson equation on a
! square plate, iterated until the largest change falls below a tolerance.
!
! -lap(u) = f on the unit square, u given on the edges (one hot edge, the
! others cold, a heat source in a patch of the interior).  One sweep:
!     unew(i,j) = ( u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1) + h*h*f(i,j) )/4
! on the interior points, then err = maxval(abs(unew - u)) and u = unew.
! The loop is the usual  do while (err > tol .and. it < maxit); the
! tolerance is loose enough that it stops after some tens of sweeps, long
! before maxit.
! Mapping: u, unew, f aligned with a template grid(n,n) distributed
! (BLOCK,BLOCK) onto a 2-D processor arrangement.
! Output: the number of sweeps, the last change, sum(u), u at the centre.

program jacobi_conv
  implicit none
  integer, parameter :: n = 34
  integer, parameter :: maxit = 1000
  real(8), parameter :: tol = 8.0d-3
  real(8), dimension(n, n) :: u, unew, f
  real(8) :: err, h
  integer :: i, j, it
!HPF$ PROCESSORS pr(2, 2)
!HPF$ TEMPLATE grid(n, n)
!HPF$ DISTRIBUTE grid(BLOCK, BLOCK) ONTO pr
!HPF$ ALIGN u(i, j) WITH grid(i, j)
!HPF$ ALIGN unew(i, j) WITH grid(i, j)
!HPF$ ALIGN f(i, j) WITH grid(i, j)

  h = 1.0d0/dble(n - 1)
  ! source: a square patch in the lower left quarter
  f = 0.0d0
  forall (i = n/5:n/3, j = n/5:n/3) f(i, j) = 50.0d0
  ! boundary: hot edge j = n, cold elsewhere; interior starts at zero
  u = 0.0d0
  forall (i = 1:n) u(i, n) = 1.0d0 + 0.5d0*dble(i - 1)*h
  unew = u

  err = 1.0d0
  it = 0
  do while (err > tol .and. it < maxit)
    it = it + 1
    forall (i = 2:n - 1, j = 2:n - 1)                                       &
      unew(i, j) = 0.25d0*(u(i - 1, j) + u(i + 1, j) + u(i, j - 1)          &
                 + u(i, j + 1) + h*h*f(i, j))
    err = maxval(abs(unew - u))
    u = unew
  end do

  print '(a,i10)', 'jacobi_conv sweeps ', it
  print '(a,es22.14)', 'jacobi_conv last change ', err
  print '(a,es22.14)', 'jacobi_conv sum(u) ', sum(u)
  print '(a,es22.14)', 'jacobi_conv centre ', u(n/2, n/2)
end program jacobi_conv
