! power_bs.f90 -- a benchmark of make bench-spmd (bench/spmd.sh): the power
! iteration for the largest eigenvalue of a symmetric matrix, as a
! data-parallel code would write it: the matrix distributed by rows
! (BLOCK,*), the vectors aligned with its rows, MATMUL for the product.
! The matrix is the second-difference matrix plus a rank-one term, so that
! the iteration converges to a known eigenvector slowly; NREP iterations
! are run whatever the convergence.
program power_bs
  implicit none
  integer, parameter :: n = 1024
  integer, parameter :: nrep = 20
  real(8) :: a(n, n), x(n), y(n)
  real(8) :: lam, s
  integer :: i, j, it
!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())
!HPF$ DISTRIBUTE a(BLOCK, *) ONTO p
!HPF$ ALIGN x(i) WITH a(i, *)
!HPF$ ALIGN y(i) WITH a(i, *)

  forall (i = 1:n, j = 1:n) a(i, j) = 1.0d0/dble(i + j)
  forall (i = 1:n) a(i, i) = a(i, i) + 2.0d0
  forall (i = 1:n) x(i) = 1.0d0 + 0.001d0*dble(mod(i, 7))
  lam = 0.0d0
  do it = 1, nrep
    y = matmul(a, x)
    s = sqrt(sum(y*y))
    lam = dot_product(x, y)/dot_product(x, x)
    x = y/s
  end do
  print '(a,es22.14)', 'power_bs lambda ', lam
  print '(a,es22.14)', 'power_bs checksum ', sum(x)
end program power_bs
