! reasons.f90 - one communication of each kind, for the reasons the report
! page gives (testsuite/html.test checks each line's kind and reason).
program reasons
  implicit none
  integer, parameter :: n = 64
  real(8), dimension(n, n) :: u, v, a, b
  real(8), dimension(n) :: x, y
  integer, dimension(n) :: idx
  real(8) :: s
  integer :: i, j
!HPF$ PROCESSORS p(4)
!HPF$ PROCESSORS g(2, 2)
!HPF$ DISTRIBUTE u(*, CYCLIC(4)) ONTO p
!HPF$ ALIGN v(i, j) WITH u(i, j)
!HPF$ DISTRIBUTE (BLOCK, BLOCK) ONTO g :: a, b
!HPF$ DISTRIBUTE (BLOCK) ONTO p :: x, y, idx
  u = 1.0d0
  a = 2.0d0
  x = 3.0d0
  forall (i = 1:n) idx(i) = n + 1 - i
  forall (i = 1:n, j = 6:n) v(i, j) = u(i, j - 5)
  forall (i = 1:n, j = 2:n - 1) v(i, j) = u(i, j - 1) + u(i, j + 1)
  forall (i = 1:n, j = 1:n/2) v(i, j) = u(i, 2*j)
  forall (i = 1:n, j = 1:n) b(i, j) = a(j, i)
  forall (i = 1:n) y(i) = x(idx(i))
  y = cshift(x, 1)
  s = x(7)
  s = s + sum(y) + sum(v) + sum(b)
  print '(a,es22.14)', 'reasons checksum ', s
end program reasons
