! overlap_wide.f90 -- shifts on BLOCK dimensions: offsets wider than a
! block (the general ghost fill), diagonal neighbours on (BLOCK, BLOCK)
! (corner ghosts), self-overlapping assignments x(2:n) = x(1:n-1) and the
! reverse (the left side is read at another element), an offset beyond the
! 64-cell overlap limit, and tiny arrays (n = 5, 3 x 3) where some
! processes own nothing.
program spmd_overlap_wide
  implicit none
  integer, parameter :: n = 15, m = 13, big = 90
  real(8), dimension(n) :: x, y
  real(8), dimension(n, m) :: a, b
  real(8), dimension(big) :: u, v
  real(8), dimension(5) :: s
  real(8), dimension(3, 3) :: e
  integer :: i, j
!HPF$ PROCESSORS q(NUMBER_OF_PROCESSORS())
!HPF$ DISTRIBUTE (BLOCK) ONTO q :: x, y, u, v, s
!HPF$ PROCESSORS p(2, 2)
!HPF$ DISTRIBUTE (BLOCK, BLOCK) ONTO p :: a, b, e

  forall (i = 1:n) x(i) = dble(i*i)
  y = 0.0d0
  y(1:n - 5) = x(6:n)
  y(7:n) = y(7:n) + x(1:n - 6)
  print '(a,es22.14)', 'overlap_wide y ', sum(y*dble((/ (i, i = 1, n) /)))
  x(2:n) = x(1:n - 1)
  print '(a,es22.14)', 'overlap_wide x1 ', sum(x*dble((/ (i, i = 1, n) /)))
  x(1:n - 3) = x(4:n) + x(2:n - 2)
  print '(a,es22.14)', 'overlap_wide x2 ', sum(x*dble((/ (i, i = 1, n) /)))
  forall (i = 2:n - 1) x(i) = x(i - 1) + x(i + 1)
  print '(a,es22.14)', 'overlap_wide x3 ', sum(x*dble((/ (i, i = 1, n) /)))

  forall (i = 1:n, j = 1:m) a(i, j) = dble(i) + 0.1d0*dble(j)
  b = 0.0d0
  forall (i = 2:n - 1, j = 2:m - 1) b(i, j) = a(i - 1, j - 1) + a(i + 1, j + 1) &
      - a(i - 1, j + 1) * a(i + 1, j - 1)
  print '(a,es22.14)', 'overlap_wide b ', sum(b)
  b(1:n - 7, 1:m - 6) = a(8:n, 7:m)
  print '(a,es22.14)', 'overlap_wide b2 ', sum(b)
  a(2:n, 2:m) = a(1:n - 1, 1:m - 1) * 0.5d0
  print '(a,es22.14)', 'overlap_wide a ', sum(a)

  forall (i = 1:big) u(i) = dble(mod(i*7, 23))
  v = 0.0d0
  v(1:big - 70) = u(71:big)
  v(75:big) = v(75:big) + u(1:big - 74)
  print '(a,es22.14)', 'overlap_wide v ', sum(v*dble((/ (i, i = 1, big) /)))

  forall (i = 1:5) s(i) = dble(10*i)
  s(2:5) = s(1:4) + s(2:5)
  print '(a,es22.14)', 'overlap_wide s ', sum(s) + s(5)
  forall (i = 1:3, j = 1:3) e(i, j) = dble(i*10 + j)
  e(2:3, 1:2) = e(1:2, 2:3)
  print '(a,es22.14)', 'overlap_wide e ', sum(e*e) + e(3, 1)
  print '(9f6.1)', e
end program spmd_overlap_wide
