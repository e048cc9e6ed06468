! matmul2d.f90 -- MATMUL of (BLOCK, BLOCK) matrices onto p(2,2), of a
! (BLOCK, *) by a (*, CYCLIC) matrix, matrix-vector and vector-matrix
! products, and MATMUL of a TRANSPOSE. Extents 14 x 9 x 11.
program spmd_matmul2d
  implicit none
  integer, parameter :: n = 14, k = 9, m = 11
  real(8), dimension(n, k) :: a
  real(8), dimension(k, m) :: b
  real(8), dimension(n, m) :: c, c2
  real(8), dimension(k) :: x
  real(8), dimension(n) :: y
  real(8), dimension(m) :: z
  real(8), dimension(k, n) :: at
  integer :: i, j
!HPF$ PROCESSORS p(2, 2)
!HPF$ DISTRIBUTE (BLOCK, BLOCK) ONTO p :: a, b, c
!HPF$ PROCESSORS q(NUMBER_OF_PROCESSORS())
!HPF$ DISTRIBUTE (BLOCK, *) ONTO q :: c2
!HPF$ DISTRIBUTE (*, CYCLIC) ONTO q :: at
!HPF$ DISTRIBUTE (CYCLIC(2)) ONTO q :: x
!HPF$ DISTRIBUTE (BLOCK) ONTO q :: y, z

  forall (i = 1:n, j = 1:k) a(i, j) = dble(i - j) / dble(i + j)
  forall (i = 1:k, j = 1:m) b(i, j) = 1.0d0 + dble(mod(i*j, 7)) * 0.25d0
  forall (i = 1:k) x(i) = dble(i) - 4.5d0

  c = matmul(a, b)
  print '(a,es22.14)', 'matmul2d c ', sum(c)
  print '(a,es22.14)', 'matmul2d c(n,m) ', c(n, m)

  y = matmul(a, x)
  print '(a,es22.14)', 'matmul2d y ', sum(y*y)

  z = matmul(x, b)
  print '(a,es22.14)', 'matmul2d z ', sum(z) + z(1)

  at = transpose(a)
  c2 = matmul(transpose(at), b) - c
  print '(a,es22.14)', 'matmul2d c2 ', maxval(abs(c2)) + 1.0d0

  c2 = 2.0d0*matmul(a(:, 1:k), b(1:k, :)) + 1.0d0
  print '(a,es22.14)', 'matmul2d c2b ', sum(c2)

  ! MATMUL of sections into sections, reversed columns, chained products
  c = 0.0d0
  c(2:n, :) = matmul(a(2:n, :), b)
  c(:, 1:m - 1:2) = matmul(a, b(:, m:2:-2)) + c(:, 2:m:2)
  print '(a,es22.14)', 'matmul2d c3 ', sum(c*c)
  y = matmul(c, z) + y
  x = matmul(y, a) + matmul(b, z)
  print '(a,es22.14)', 'matmul2d x ', sum(x*x)
  print '(a,es22.14)', 'matmul2d dot ', dot_product(matmul(x, b), z)
end program spmd_matmul2d
