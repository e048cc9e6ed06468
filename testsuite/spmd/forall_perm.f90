! forall_perm.f90 -- FORALL with a non-affine left side a(ix(i)) = ...
! (ix a permutation, so a scatter), with a mask (mod(i,3) /= 0), a 2-D
! FORALL with a triangular mask, a FORALL construct whose second statement
! reads the first's result through the permutation, and a scatter to a
! differently distributed array; the left-hand array read through the
! permutation; diagonals of a (BLOCK, CYCLIC) array. n = 31.
program spmd_forall_perm
  implicit none
  integer, parameter :: n = 31, m = 9
  real(8), dimension(n) :: a, b, c
  integer, dimension(n) :: ix
  real(8), dimension(m, m) :: g, d2
  integer :: i, j
!HPF$ PROCESSORS q(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE t(n)
!HPF$ DISTRIBUTE t(BLOCK) ONTO q
!HPF$ ALIGN a(i) WITH t(i)
!HPF$ ALIGN ix(i) WITH t(i)
!HPF$ DISTRIBUTE (CYCLIC) ONTO q :: b
!HPF$ DISTRIBUTE (BLOCK(9)) ONTO q :: c
!HPF$ DISTRIBUTE (CYCLIC(2), *) ONTO q :: g
!HPF$ PROCESSORS p(2, 2)
!HPF$ DISTRIBUTE (BLOCK, CYCLIC) ONTO p :: d2

  forall (i = 1:n) ix(i) = mod(11*i, n) + 1
  forall (i = 1:n) b(i) = dble(i) + 0.25d0
  a = 0.0d0
  c = -1.0d0

  ! scatter through a permutation
  forall (i = 1:n) a(ix(i)) = b(i)*2.0d0
  print '(a,es22.14)', 'forall_perm a ', sum(a*dble((/ (i, i = 1, n) /)))

  ! scatter with a mask to a BLOCK(9) array
  forall (i = 1:n, mod(i, 3) /= 0) c(ix(i)) = a(i) + dble(i)
  print '(a,es22.14)', 'forall_perm c ', sum(c*dble((/ (i, i = 1, n) /)))

  ! plain masked FORALL, right side shifted
  forall (i = 2:n, mod(i, 3) /= 0) b(i) = a(i - 1) - c(i)
  print '(a,es22.14)', 'forall_perm b ', sum(b*dble((/ (i, i = 1, n) /)))

  ! FORALL construct: the second statement sees the first's scatter
  forall (i = 1:n)
    a(ix(i)) = dble(i)
    b(i) = a(i) + a(ix(i))
  end forall
  print '(a,es22.14)', 'forall_perm a2 ', sum(a*dble((/ (i, i = 1, n) /)))
  print '(a,es22.14)', 'forall_perm b2 ', sum(b*dble((/ (i, i = 1, n) /)))

  ! 2-D FORALL with a triangular mask (the SPMD lowering refuses nested FORALL)
  g = 0.0d0
  forall (i = 1:m, j = 1:m, j >= i .and. mod(i + j, 2) == 0) g(i, j) = dble(i*10 + j)
  forall (i = 2:m, j = 1:m, j < i) g(i, j) = -g(j, i)
  print '(a,es22.14)', 'forall_perm g ', sum(g*g) + sum(g(:, m))
  ! scatter into rows of a 2-D array through the permutation
  forall (i = 1:m, j = 1:m, ix(i) <= m) g(ix(i), j) = dble(j - i)
  print '(a,es22.14)', 'forall_perm g2 ', sum(g*g) + sum(g(:, 1))

  ! the left-hand array read through the permutation (all right sides are
  ! evaluated before any store)
  forall (i = 1:n) a(i) = a(ix(i)) + a(i)
  print '(a,es22.14)', 'forall_perm a3 ', sum(a*dble((/ (i, i = 1, n) /)))
  forall (i = 1:n) a(ix(i)) = a(i) + a(ix(i))*0.5d0
  print '(a,es22.14)', 'forall_perm a4 ', sum(a*dble((/ (i, i = 1, n) /)))
  forall (i = 1:n) ix(i) = ix(n + 1 - i)
  print '(a,i0)', 'forall_perm ix ', sum(ix*(/ (i, i = 1, n) /))

  ! both distributed dimensions bound to one index: diagonals (d2 set
  ! whole first: the sums read every element)
  g = 0.0d0
  d2 = 0.0d0
  forall (i = 1:m) d2(i, i) = dble(i)
  forall (i = 1:m) d2(i, m + 1 - i) = d2(i, m + 1 - i) + 100.0d0
  forall (i = 2:m) d2(i, i - 1) = d2(i - 1, i) + 1.0d0
  forall (i = 1:m) g(i, i) = d2(m + 1 - i, i)
  print '(a,es22.14)', 'forall_perm diag ', sum(d2*d2) + sum(g)
end program spmd_forall_perm
