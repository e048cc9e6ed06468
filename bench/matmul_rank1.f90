! matmul_rank1.f90 -- the benchmark of make bench (bench/predict.sh) for
! predictions whose communication partners depend on a DO index: C = A B
! by n rank-1 updates, columns CYCLIC, column k of A broadcast at step k.
! Its prediction time must not depend on n.
program matmul_rank1
  integer, parameter :: n = 100
  real :: a(n, n), b(n, n), c(n, n)
  integer :: i, j, k
!hpf$ processors p(4)
!hpf$ distribute (*, cyclic) onto p :: a, b, c
  forall (i = 1:n, j = 1:n) a(i, j) = real(i + j)
  forall (i = 1:n, j = 1:n) b(i, j) = real(i - j)
  c = 0.0
  do k = 1, n
    forall (i = 1:n, j = 1:n) c(i, j) = c(i, j) + a(i, k)*b(k, j)
  end do
  print *, sum(c)
end program matmul_rank1
