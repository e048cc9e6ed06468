! cyclic_stride.f90 -- CYCLIC(k) and BLOCK(k) distributions with strided
! sections (a(1:n:3) = b(2:n:3)), negative strides (a(n:1:-1) = b(1:n)),
! and ALIGN with strides and offsets (ALIGN x(i) WITH t(2*i+1)). n = 37.
program spmd_cyclic_stride
  implicit none
  integer, parameter :: n = 37, h = 17
  real(8), dimension(n) :: a, b, c
  real(8), dimension(h) :: x, y
  real(8), dimension(n, 5) :: g
  integer :: i, j
!HPF$ PROCESSORS q(NUMBER_OF_PROCESSORS())
!HPF$ DISTRIBUTE (CYCLIC(3)) ONTO q :: a
!HPF$ DISTRIBUTE (BLOCK(10)) ONTO q :: b
!HPF$ DISTRIBUTE (CYCLIC(5)) ONTO q :: c
!HPF$ TEMPLATE t(2*h + 3)
!HPF$ DISTRIBUTE t(CYCLIC(4)) ONTO q
!HPF$ ALIGN x(i) WITH t(2*i + 1)
!HPF$ ALIGN y(i) WITH t(3 + 2*i - 1)
!HPF$ DISTRIBUTE (CYCLIC(2), *) ONTO q :: g

  forall (i = 1:n) b(i) = dble(i) + 0.5d0
  forall (i = 1:n) c(i) = 1000.0d0 + dble(i*i)
  a = 0.0d0

  a(1:n - 1:3) = b(2:n:3)
  print '(a,es22.14)', 'cyclic_stride a1 ', sum(a*dble((/ (i, i = 1, n) /)))
  a(n:1:-1) = b(1:n)
  print '(a,es22.14)', 'cyclic_stride a2 ', sum(a*dble((/ (i, i = 1, n) /)))
  a(n - 1:2:-5) = c(3:n:5) + b(1:31:5)
  print '(a,es22.14)', 'cyclic_stride a3 ', sum(a*dble((/ (i, i = 1, n) /)))
  c(2:n:2) = c(n:2:-2) - a(1:n - 1:2)
  print '(a,es22.14)', 'cyclic_stride c ', sum(c*dble((/ (i, i = 1, n) /)))
  b(n:1:-4) = a(1:n:4)*2.0d0
  print '(a,es22.14)', 'cyclic_stride b ', sum(b*dble((/ (i, i = 1, n) /)))

  forall (i = 1:h) x(i) = dble(3*i)
  y = x
  y(h:1:-1) = x + 0.5d0
  x(2:h - 1) = y(1:h - 2) + y(3:h)
  print '(a,es22.14)', 'cyclic_stride x ', sum(x*dble((/ (i, i = 1, h) /)))
  print '(a,es22.14)', 'cyclic_stride y ', sum(y*dble((/ (i, i = 1, h) /)))
  x(1:h:4) = a(n:n - 16:-4) + b(2:18:4)
  print '(a,es22.14)', 'cyclic_stride x2 ', sum(x*dble((/ (i, i = 1, h) /)))

  forall (i = 1:n, j = 1:5) g(i, j) = dble(i) * dble(j)
  g(n:1:-3, 2) = g(1:n:3, 4) + a(1:n:3)
  g(1:n - 1:2, 1:5:2) = -g(2:n:2, 5:1:-2)
  print '(a,es22.14)', 'cyclic_stride g ', sum(g*g)
  print '(a,es22.14)', 'cyclic_stride sum strided ', sum(a(n:1:-2)) + sum(c(3:n:7))
end program spmd_cyclic_stride
