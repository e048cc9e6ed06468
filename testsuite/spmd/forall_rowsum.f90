! forall_rowsum.f90 -- reductions inside FORALL: r(i) = sum(a(i,:)) on a
! (BLOCK, *) array (local rows), c(j) = sum(b(:,j)) on a (*, BLOCK) array
! (local columns), and the crossed cases (sum over the distributed
! dimension), with MAXVAL and a partial section, MASK=, COUNT, PRODUCT,
! DOT_PRODUCT and a CSHIFT inside the reduction. Extents 19 x 13.
program spmd_forall_rowsum
  implicit none
  integer, parameter :: n = 19, m = 13
  real(8), dimension(n, m) :: a
  real(8), dimension(m, n) :: b
  real(8), dimension(n) :: r, r2
  real(8), dimension(m) :: c, c2
  integer :: i, j
!HPF$ PROCESSORS q(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE t(n)
!HPF$ DISTRIBUTE t(BLOCK) ONTO q
!HPF$ ALIGN a(i, *) WITH t(i)
!HPF$ ALIGN r(i) WITH t(i)
!HPF$ ALIGN b(*, j) WITH t(j)
!HPF$ ALIGN r2(i) WITH t(i)
!HPF$ DISTRIBUTE (CYCLIC) ONTO q :: c
!HPF$ DISTRIBUTE (BLOCK) ONTO q :: c2

  forall (i = 1:n, j = 1:m) a(i, j) = dble(i) + 0.1d0*dble(j*j)
  forall (i = 1:m, j = 1:n) b(i, j) = dble(i*j) / 7.0d0

  forall (i = 1:n) r(i) = sum(a(i, :))
  print '(a,es22.14)', 'forall_rowsum r ', sum(r*r)
  forall (i = 1:n) r2(i) = sum(b(:, i)) + maxval(a(i, 2:m - 1))
  print '(a,es22.14)', 'forall_rowsum r2 ', sum(r2*r2)

  ! sums along the distributed dimension
  forall (j = 1:m) c(j) = sum(a(:, j))
  print '(a,es22.14)', 'forall_rowsum c ', sum(c*c)
  forall (j = 1:m) c2(j) = sum(b(j, :)) - minval(b(j, 3:n:2))
  print '(a,es22.14)', 'forall_rowsum c2 ', sum(c2*c2)

  ! reduction of a product of two sections, and with the index in the section
  forall (i = 1:n) r(i) = sum(a(i, 1:m)*b(1:m, i))
  print '(a,es22.14)', 'forall_rowsum r3 ', sum(r)
  forall (i = 1:n) r2(i) = sum(a(1:i, 1))
  print '(a,es22.14)', 'forall_rowsum r4 ', sum(r2)

  ! inline reductions with MASK=, COUNT, PRODUCT, DOT_PRODUCT, and a
  ! reduction of a CSHIFT of the row
  forall (i = 1:n) r(i) = sum(a(i, :), mask = a(i, :) > dble(i) + 2.0d0) + dble(count(b(:, i) > 5.0d0))
  print '(a,es22.14)', 'forall_rowsum r5 ', sum(r*r)
  forall (j = 1:m) c(j) = product(a(1:3, j)/10.0d0) + dot_product(a(:, j), a(:, 1))
  print '(a,es22.14)', 'forall_rowsum c3 ', sum(c)
  forall (i = 1:n) r2(i) = sum(cshift(a(i, :), 2)*b(:, i))
  print '(a,es22.14)', 'forall_rowsum r6 ', sum(r2)
end program spmd_forall_rowsum
