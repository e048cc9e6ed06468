! array3d.f90 -- a 3-D array distributed (BLOCK, *, CYCLIC) onto p(2,2):
! a 3-index FORALL, SUM(DIM=3) and SUM(DIM=1) into 2-D arrays aligned with
! the template, a shift along the collapsed dimension, a 3-index FORALL
! with a mask reading a neighbour along the distributed dimensions, and
! MAXVAL(DIM=2); and the same with DISTRIBUTE c(BLOCK, *, CYCLIC) ONTO p
! directly, summed into an unmapped array. Extents 9 x 5 x 7.
program spmd_array3d
  implicit none
  integer, parameter :: n1 = 9, n2 = 5, n3 = 7
  real(8), dimension(n1, n2, n3) :: a, b
  real(8), dimension(n1, n2) :: s3
  real(8), dimension(n2, n3) :: s1
  real(8), dimension(n1, n3) :: m2
  real(8), dimension(n1, n2, n3) :: c
  real(8), dimension(n1, n2) :: r
  integer :: i, j, k
!HPF$ PROCESSORS p(2, 2)
!HPF$ TEMPLATE t(n1, n3)
!HPF$ DISTRIBUTE t(BLOCK, CYCLIC) ONTO p
!HPF$ ALIGN a(i, j, k) WITH t(i, k)
!HPF$ ALIGN b(i, j, k) WITH t(i, k)
!HPF$ ALIGN s3(i, j) WITH t(i, *)
!HPF$ ALIGN s1(j, k) WITH t(*, k)
!HPF$ ALIGN m2(i, k) WITH t(i, k)
!HPF$ DISTRIBUTE c(BLOCK, *, CYCLIC) ONTO p

  forall (i = 1:n1, j = 1:n2, k = 1:n3) a(i, j, k) = dble(i) + 0.1d0*dble(j) + 0.01d0*dble(k*k)
  s3 = sum(a, dim = 3)
  s1 = sum(a, dim = 1)
  m2 = maxval(a*a, dim = 2)
  print '(a,es22.14)', 'array3d s3 ', sum(s3*s3)
  print '(a,es22.14)', 'array3d s1 ', sum(s1*s1)
  print '(a,es22.14)', 'array3d m2 ', sum(m2)

  b = 0.0d0
  forall (i = 2:n1, j = 1:n2, k = 1:n3 - 1, mod(i + j + k, 2) == 0) &
      b(i, j, k) = a(i - 1, j, k + 1) - a(i, j, k)
  print '(a,es22.14)', 'array3d b ', sum(b*b)
  b = cshift(a, 2, dim = 2) + eoshift(a, -1, dim = 3)
  print '(a,es22.14)', 'array3d b2 ', sum(b)
  b(:, 3, :) = a(:, 1, :)*2.0d0 - m2*0.01d0
  print '(a,es22.14)', 'array3d b3 ', sum(b)
  s3(2:n1 - 1, :) = sum(b(2:n1 - 1, :, 1:n3:2), dim = 3)
  print '(a,es22.14)', 'array3d s3b ', sum(s3)
  forall (i = 1:n1, j = 1:n2, k = 1:n3) c(i, j, k) = a(n1 + 1 - i, j, n3 + 1 - k)*dble(j)
  r = sum(c, dim = 3)
  print '(a,es22.14)', 'array3d r ', sum(r*r)
  r = sum(c(:, :, 2:n3), dim = 3) - sum(a, dim = 3)
  print '(a,es22.14)', 'array3d r2 ', sum(r)
  print '(a,es22.14)', 'array3d a(9,5,7) ', a(n1, n2, n3) + sum(a(3, :, 4))
end program spmd_array3d
