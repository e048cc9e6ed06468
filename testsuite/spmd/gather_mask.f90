! gather_mask.f90 -- gathers through an index vector: a FORALL with a mask
! that reads x(ix(i)) only where ix(i) > 0, a WHERE whose mask and body use
! a vector subscript, vector subscript sections y = x(iv) on both sides of
! different distributions, and a 2-D gather a(ix(i), j). n = 26.
program spmd_gather_mask
  implicit none
  integer, parameter :: n = 26, m = 6
  real(8), dimension(n) :: x, y, z
  integer, dimension(n) :: ix, iv
  real(8), dimension(n, m) :: a, b
  integer :: i, j
!HPF$ PROCESSORS q(NUMBER_OF_PROCESSORS())
!HPF$ DISTRIBUTE (BLOCK) ONTO q :: x, ix
!HPF$ DISTRIBUTE (CYCLIC) ONTO q :: y, iv
!HPF$ DISTRIBUTE (CYCLIC(4)) ONTO q :: z
!HPF$ DISTRIBUTE (BLOCK, *) ONTO q :: a
!HPF$ DISTRIBUTE (*, BLOCK) ONTO q :: b

  forall (i = 1:n) x(i) = dble(i*i) + 0.5d0
  forall (i = 1:n) ix(i) = mod(7*i, n + 1) - 3
  forall (i = 1:n) iv(i) = n - mod(5*i, n)
  forall (i = 1:n, j = 1:m) a(i, j) = dble(i) + 100.0d0*dble(j)
  y = -1.0d0
  z = 0.0d0

  forall (i = 1:n, ix(i) > 0) y(i) = x(ix(i))
  print '(a,es22.14)', 'gather_mask y ', sum(y*dble((/ (i, i = 1, n) /)))

  ! a vector subscript on the right, iv a permutation-like index vector
  z = x(iv)
  print '(a,es22.14)', 'gather_mask z ', sum(z*dble((/ (i, i = 1, n) /)))
  y = x(iv) + z(iv)
  print '(a,es22.14)', 'gather_mask y2 ', sum(y*dble((/ (i, i = 1, n) /)))

  ! WHERE with a gathered mask and body
  where (x(iv) > 200.0d0)
    y = x(iv) - 200.0d0
  elsewhere
    y = z
  end where
  print '(a,es22.14)', 'gather_mask y3 ', sum(y*dble((/ (i, i = 1, n) /)))

  ! vector subscript of a section, and in a 2-D array
  z(1:10) = x(iv(5:14))
  print '(a,es22.14)', 'gather_mask z2 ', sum(z*dble((/ (i, i = 1, n) /)))
  forall (i = 1:n, j = 1:m, ix(i) > 0) b(i, j) = a(ix(i), j)
  forall (i = 1:n, j = 1:m, ix(i) <= 0) b(i, j) = 0.0d0
  print '(a,es22.14)', 'gather_mask b ', sum(b*b)
  b(:, 2) = a(iv, 3)
  print '(a,es22.14)', 'gather_mask b2 ', sum(b(:, 2)*x)
end program spmd_gather_mask
