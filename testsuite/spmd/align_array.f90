! align_array.f90 -- arrays aligned with another array (ALIGN b(i) WITH
! a(i), and a chain c WITH b), with a reversed and offset alignment to an
! array, and a template dimension fixed by a constant ALIGN subscript
! (ALIGN x(j) WITH t(3, j), y(j) WITH t(n, j)) on a (BLOCK, CYCLIC) p(2,2)
! template; arrays with lower bounds other than 1 aligned with strides
! and reversal to a template t0(0:3*m). Extents 11 x 14.
program spmd_align_array
  implicit none
  integer, parameter :: n = 11, m = 14
  real(8), dimension(m) :: a, b, c, d
  real(8), dimension(m) :: x, y, z
  real(8), dimension(n, m) :: g
  real(8) :: x0(0:m), y0(-3:m - 4), z0(m)
  real(8) :: g0(-1:5, 2:9), h0(0:6, 8)
  integer :: i, j
!HPF$ PROCESSORS q(NUMBER_OF_PROCESSORS())
!HPF$ DISTRIBUTE a(BLOCK) ONTO q
!HPF$ ALIGN b(i) WITH a(i)
!HPF$ ALIGN c(i) WITH b(i)
!HPF$ ALIGN d(i) WITH a(m + 1 - i)
!HPF$ PROCESSORS p(2, 2)
!HPF$ TEMPLATE t(n, m)
!HPF$ DISTRIBUTE t(BLOCK, CYCLIC) ONTO p
!HPF$ ALIGN g(i, j) WITH t(i, j)
!HPF$ ALIGN x(j) WITH t(3, j)
!HPF$ ALIGN y(j) WITH t(n, j)
!HPF$ ALIGN z(j) WITH t(*, j)
!HPF$ TEMPLATE t0(0:3*m)
!HPF$ DISTRIBUTE t0(CYCLIC(2)) ONTO q
!HPF$ ALIGN x0(i) WITH t0(2*i + 1)
!HPF$ ALIGN y0(i) WITH t0(m - i)
!HPF$ ALIGN z0(i) WITH t0(3*i - 2)
!HPF$ DISTRIBUTE (BLOCK, CYCLIC(3)) ONTO p :: g0
!HPF$ DISTRIBUTE (CYCLIC(2), BLOCK) ONTO p :: h0

  forall (i = 1:m) a(i) = dble(i*i) - 20.0d0
  b = a*0.5d0
  c = b + a
  d = a(m:1:-1) + c
  print '(a,es22.14)', 'align_array d ', sum(d*dble((/ (i, i = 1, m) /)))
  b(2:m) = d(1:m - 1) - c(2:m)
  print '(a,es22.14)', 'align_array b ', sum(b*dble((/ (i, i = 1, m) /)))

  forall (i = 1:n, j = 1:m) g(i, j) = dble(i) + 0.01d0*dble(j)
  x = g(3, :)
  y = g(n, :) + x
  z = g(1, :) + y
  print '(a,es22.14)', 'align_array x ', sum(x*dble((/ (i, i = 1, m) /)))
  print '(a,es22.14)', 'align_array y ', sum(y*dble((/ (i, i = 1, m) /)))
  print '(a,es22.14)', 'align_array z ', sum(z*dble((/ (i, i = 1, m) /)))
  g(5, :) = x + y + d
  g(:, 2) = g(:, 3) + x(4)
  forall (j = 1:m) g(2, j) = z(j) - y(m + 1 - j)
  print '(a,es22.14)', 'align_array g ', sum(g*g)
  x = y(m:1:-1) + z
  print '(a,es22.14)', 'align_array x2 ', sum(x*dble((/ (i, i = 1, m) /))) + x(m)

  ! lower bounds other than 1, strided and reversed alignments
  forall (i = 0:m) x0(i) = dble(i*i)
  forall (i = -3:m - 4) y0(i) = dble(i) + 0.5d0
  z0 = x0(1:m) + y0(-3:m - 4)
  print '(a,es22.14)', 'align_array z0 ', sum(z0*dble((/ (i, i = 1, m) /)))
  x0(0:m - 1) = x0(1:m) - y0(m - 4:-3:-1)
  print '(a,es22.14)', 'align_array x0 ', sum(x0*dble((/ (i, i = 0, m) /)))
  y0 = cshift(x0(1:m), 3) + eoshift(z0, -2)
  print '(a,es22.14)', 'align_array y0 ', sum(y0*dble((/ (i, i = 1, m) /)))
  print '(a,es22.14)', 'align_array elements ', x0(0) + y0(-3) + y0(m - 4) + z0(m)
  forall (i = -1:5, j = 2:9) g0(i, j) = dble(i*10 + j)
  h0 = g0
  h0(1:6, :) = g0(-1:4, 9:2:-1) + h0(0:5, :)
  print '(a,es22.14)', 'align_array h0 ', sum(h0*h0)
  g0 = transpose(transpose(h0))*0.5d0 + g0
  print '(a,es22.14)', 'align_array g0 ', sum(g0) + g0(-1, 9)
  print '(a,es22.14)', 'align_array sums ', sum(sum(g0, dim = 1)*dble((/ (i, i = 2, 9) /))) &
      + sum(sum(h0, dim = 2)*dble((/ (i, i = 0, 6) /)))
  do i = -1, 5
    g0(i, 2) = g0(i, 3) + dble(lbound(g0, 1)) + dble(ubound(h0, 1)) + dble(size(g0, 2))
  end do
  print '(a,es22.14)', 'align_array g0b ', sum(g0(:, 2))
end program spmd_align_array
