! matmul_rank1.f90 -- matrix product C = A B as n rank-1 updates (the
! outer-product, "kij" form of the 1980s vector machines).
!
!     do k = 1, n
!       forall (i = 1:n, j = 1:n) c(i,j) = c(i,j) + a(i,k)*b(k,j)
!     end do
! Column k of A is needed by every processor, row k of B only where its
! columns live.  The product is then checked against the MATMUL intrinsic
! (within a tolerance: the order of its sums is the library's), and a second
! product C2 = transpose(A) (B + I) is formed by the same loop, reading
! a(k,i) (a row of A) in place of a(i,k).
! Mapping: a, b, c, c2, cm distributed (*, CYCLIC) onto all processors: whole
! columns dealt round robin.
! Output: sum(c), the trace of c, c(1,n), c2 checksum, agreement flag.

program matmul_rank1
  implicit none
  integer, parameter :: n = 48
  real(8), dimension(n, n) :: a, b, c, c2, cm
  real(8) :: tr, dmax
  integer :: i, j, k
!HPF$ PROCESSORS pc(NUMBER_OF_PROCESSORS())
!HPF$ DISTRIBUTE (*, CYCLIC) ONTO pc :: a, b, c, c2, cm

  forall (i = 1:n, j = 1:n) a(i, j) = dble(mod(i + 2*j, 7) - 3) + 0.5d0/dble(i + j)
  forall (i = 1:n, j = 1:n) b(i, j) = dble(mod(3*i + j, 5) - 2)*0.25d0 + 1.0d0/dble(2*i + j)

  c = 0.0d0
  do k = 1, n
    forall (i = 1:n, j = 1:n) c(i, j) = c(i, j) + a(i, k)*b(k, j)
  end do

  ! second product with the transpose of a: c2 = transpose(a) (b + I)
  c2 = 0.0d0
  do k = 1, n
    forall (i = 1:n, j = 1:n) c2(i, j) = c2(i, j) + a(k, i)*b(k, j)
    forall (i = 1:n) c2(i, k) = c2(i, k) + a(k, i)
  end do

  cm = matmul(a, b)
  dmax = maxval(abs(cm - c))

  tr = 0.0d0
  do i = 1, n
    tr = tr + c(i, i)
  end do

  print '(a,es22.14)', 'matmul_rank1 sum(c) ', sum(c)
  print '(a,es22.14)', 'matmul_rank1 trace(c) ', tr
  print '(a,es22.14)', 'matmul_rank1 c(1,n) ', c(1, n)
  print '(a,es22.14)', 'matmul_rank1 sum(c2) ', sum(c2)
  print '(a,es22.14)', 'matmul_rank1 c2(n,1) ', c2(n, 1)
  print '(a,l2)', 'matmul_rank1 agrees with matmul ', dmax < 1.0d-10
end program matmul_rank1
