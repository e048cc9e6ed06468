! stencil3d.f90 -- a benchmark of make bench-spmd (bench/spmd.sh): Jacobi
! relaxation of the 7-point Laplacian on an n x n x n grid, the first two
! dimensions distributed (BLOCK,BLOCK,*) on a 2-D grid of processors, the
! third kept whole on each; NREP sweeps, with the residual's maximum
! every sweep as a convergence test would take it.
program stencil3d
  implicit none
  integer, parameter :: n = 64
  integer, parameter :: nrep = 10
  real(8) :: u(n, n, n), v(n, n, n)
  real(8) :: r, s
  integer :: i, j, k, it
!HPF$ PROCESSORS p(2, 2)
!HPF$ DISTRIBUTE u(BLOCK, BLOCK, *) ONTO p
!HPF$ ALIGN v(i, j, k) WITH u(i, j, k)

  u = 0.0d0
  forall (i = 1:n, j = 1:n) u(i, j, 1) = 1.0d0
  forall (i = 1:n, k = 1:n) u(i, 1, k) = 0.5d0
  v = u
  r = 0.0d0
  do it = 1, nrep
    forall (i = 2:n - 1, j = 2:n - 1, k = 2:n - 1)                           &
      v(i, j, k) = (u(i - 1, j, k) + u(i + 1, j, k) + u(i, j - 1, k)           &
                    + u(i, j + 1, k) + u(i, j, k - 1) + u(i, j, k + 1))/6.0d0
    r = maxval(abs(v - u))
    u = v
  end do
  s = sum(u)
  print '(a,es22.14)', 'stencil3d residual ', r
  print '(a,es22.14)', 'stencil3d checksum ', s
end program stencil3d
