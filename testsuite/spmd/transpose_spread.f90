! transpose_spread.f90 -- TRANSPOSE and SPREAD of distributed arrays, in
! place (a = transpose(a)) and into differently distributed arrays;
! self-aliasing assignments (x = x(n:1:-1), a = a(:, m:1:-1)); a vector
! subscript on the left (x(iv) = y, a scatter) including x(iv) = x; and
! CSHIFT with a variable and a larger-than-extent shift. 12 x 12, 10 x 17.
program spmd_transpose_spread
  implicit none
  integer, parameter :: n = 12, m = 17, l = 10
  real(8), dimension(n, n) :: a, at
  real(8), dimension(l, m) :: b
  real(8), dimension(m, l) :: bt
  real(8), dimension(m) :: x, y
  integer, dimension(m) :: iv
  real(8), dimension(l, n) :: sp
  integer :: i, j, sh
!HPF$ PROCESSORS p(2, 2)
!HPF$ DISTRIBUTE (BLOCK, CYCLIC) ONTO p :: a
!HPF$ DISTRIBUTE (CYCLIC, BLOCK) ONTO p :: at
!HPF$ DISTRIBUTE (BLOCK, BLOCK) ONTO p :: b
!HPF$ PROCESSORS q(NUMBER_OF_PROCESSORS())
!HPF$ DISTRIBUTE (*, BLOCK) ONTO q :: bt
!HPF$ DISTRIBUTE (BLOCK) ONTO q :: x
!HPF$ DISTRIBUTE (CYCLIC) ONTO q :: y, iv
!HPF$ DISTRIBUTE (CYCLIC(2), *) ONTO q :: sp

  forall (i = 1:n, j = 1:n) a(i, j) = dble(i) + 100.0d0*dble(j)
  at = transpose(a)
  print '(a,es22.14)', 'transpose_spread at ', sum(at*a)
  a = transpose(a) + 0.5d0*a
  print '(a,es22.14)', 'transpose_spread a ', sum(at*a)
  forall (i = 1:l, j = 1:m) b(i, j) = dble(i*j) - dble(j)
  bt = transpose(b)
  bt(:, 2) = bt(:, 2) + b(3, :)
  print '(a,es22.14)', 'transpose_spread bt ', sum(bt*bt)

  forall (i = 1:m) x(i) = dble(i) - 0.25d0
  sp = spread(x(1:n), 1, l)
  print '(a,es22.14)', 'transpose_spread sp ', sum(sp*sp) + sp(l, n)
  sp = spread(x(3:l + 2), 2, n) + sp
  print '(a,es22.14)', 'transpose_spread sp2 ', sum(sp*sp)

  x = x(m:1:-1)
  print '(a,es22.14)', 'transpose_spread x ', sum(x*dble((/ (i, i = 1, m) /)))
  a = a(:, n:1:-1)
  print '(a,es22.14)', 'transpose_spread a2 ', sum(at*a)
  a(2:n, :) = a(1:n - 1, n:1:-1)
  print '(a,es22.14)', 'transpose_spread a3 ', sum(at*a)

  forall (i = 1:m) iv(i) = mod(5*i, m) + 1
  forall (i = 1:m) y(i) = dble(i*i)
  x(iv) = y
  print '(a,es22.14)', 'transpose_spread scatter ', sum(x*dble((/ (i, i = 1, m) /)))
  x(iv) = x + 1.0d0
  print '(a,es22.14)', 'transpose_spread scatter self ', sum(x*dble((/ (i, i = 1, m) /)))
  y(iv(1:5)) = -x(1:5)
  print '(a,es22.14)', 'transpose_spread scatter part ', sum(y*dble((/ (i, i = 1, m) /)))

  sh = -3*m - 4
  x = cshift(y, sh)
  print '(a,es22.14)', 'transpose_spread cshift var ', sum(x*dble((/ (i, i = 1, m) /)))
  sh = 2*m + 5
  y = eoshift(x, sh/5) + cshift(x, sh)
  print '(a,es22.14)', 'transpose_spread shifts ', sum(y*dble((/ (i, i = 1, m) /)))
end program spmd_transpose_spread
