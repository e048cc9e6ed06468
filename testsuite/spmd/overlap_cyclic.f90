! overlap_cyclic.f90 -- stencils on CYCLIC(k) and BLOCK(k) dimensions
! through overlap areas around every block: offsets of one and two cells
! on CYCLIC(4), a (CYCLIC(3),*) array, a nine-point stencil on
! (CYCLIC(4),BLOCK) whose corners come through the order of the shifts,
! an offset and a stride-2 alignment, two arrays distributed directly
! alike (one shifted, one not: their local indices must agree), a box
! of a few cells, a dummy shifted in a subroutine, an offset wider than
! half a block (gathered), and BLOCK(k) that wraps round on one process.
! Every array is changed before each statement that reads it shifted,
! so a ghost cell left stale changes what is printed.
program spmd_overlap_cyclic
  implicit none
  integer, parameter :: n = 37, m = 9
  real(8) :: a(n), b(n), c(n), d(n), e(n), f(n), g(n)
  real(8) :: u(n, m), v(n, m), w(n, m), z(n, m)
  real(8) :: h(n + 2), o(n), p2(n), q2(n), r(16), s(16)
  integer :: i, j, it
!HPF$ PROCESSORS pr(NUMBER_OF_PROCESSORS()), pg(2, 2)
!HPF$ TEMPLATE t(2*n + 2)
!HPF$ DISTRIBUTE a(CYCLIC(4)) ONTO pr
!HPF$ ALIGN b(i) WITH a(i)
!HPF$ DISTRIBUTE c(CYCLIC(4)) ONTO pr
!HPF$ DISTRIBUTE d(CYCLIC(4)) ONTO pr
!HPF$ DISTRIBUTE (CYCLIC(3), *) ONTO pr :: u, v
!HPF$ DISTRIBUTE w(CYCLIC(4), BLOCK) ONTO pg
!HPF$ ALIGN z(i, j) WITH w(i, j)
!HPF$ DISTRIBUTE t(CYCLIC(4)) ONTO pr
!HPF$ ALIGN h(i) WITH t(i + 1)
!HPF$ ALIGN o(i) WITH t(2*i)
!HPF$ ALIGN p2(i) WITH t(2*i)
!HPF$ DISTRIBUTE (CYCLIC(3)) ONTO pr :: e, f
!HPF$ DISTRIBUTE (BLOCK(8)) ONTO pr :: r, s
!HPF$ ALIGN g(i) WITH a(i)
!HPF$ ALIGN q2(i) WITH a(i)

  forall (i = 1:n) a(i) = dble(mod(i*i, 11)) + 0.5d0*dble(i)
  b = 0
  c = 0
  forall (i = 1:n) d(i) = dble(mod(7*i, 13))
  forall (i = 1:n) e(i) = dble(mod(5*i, 17))
  f = 0
  g = 0
  forall (i = 1:n, j = 1:m) u(i, j) = dble(mod(i*3 + j*5, 19))
  v = 0
  forall (i = 1:n, j = 1:m) w(i, j) = dble(mod(i*7 + j*2, 23)) - 0.25d0*dble(j)
  z = 0
  forall (i = 1:n + 2) h(i) = dble(mod(i, 6)) + 1.0d0
  forall (i = 1:n) o(i) = dble(i)
  p2 = 0
  q2 = 0
  forall (i = 1:16) r(i) = dble(i*i)
  s = 0

  do it = 1, 3
    ! offsets of one cell on CYCLIC(4)
    a = a + dble(it)
    forall (i = 2:n - 1) b(i) = a(i - 1) - 2.0d0*a(i) + a(i + 1)
    ! two cells (half a block)
    a = a*0.5d0
    forall (i = 3:n - 2) b(i) = b(i) + a(i - 2) + a(i + 2)
    ! c shifted, d (distributed alike, not aligned) read at the same cell
    c = d + b
    forall (i = 2:n - 1) d(i) = c(i + 1) + c(i - 1) + d(i)
    ! a box of a few cells: only the blocks around 5..12 exchange
    c = c - 1.0d0
    forall (i = 5:12) g(i) = c(i - 1)*c(i + 1)
    ! (CYCLIC(3), *)
    u = u + 1.0d0
    forall (i = 2:n - 1, j = 1:m) v(i, j) = u(i - 1, j) + u(i + 1, j) - u(i, j)
    ! nine points on (CYCLIC(4), BLOCK): corners through the shifts' order
    w = w*0.75d0 + dble(it)
    forall (i = 2:n - 1, j = 2:m - 1) z(i, j) = w(i - 1, j - 1) + w(i + 1, j + 1) &
        - w(i + 1, j - 1) - w(i - 1, j + 1) + w(i, j)
    ! an offset alignment, and a stride-2 one (an offset of 2 cells)
    h = h + 0.5d0
    forall (i = 2:n + 1) h(i) = h(i) + h(i - 1)*0.5d0
    o = o + 1.0d0
    forall (i = 1:n - 1) p2(i) = o(i + 1) - o(i)
    ! an offset wider than half a block: gathered, not shifted
    e = e + 2.0d0
    forall (i = 3:n) f(i) = e(i - 2)
    ! a dummy of the caller's mapping, shifted in a subroutine
    call smooth(a, q2, n)
    ! BLOCK(8) of 16: one block a process on 2 or more, two on one
    r = r + 1.0d0
    forall (i = 2:15) s(i) = r(i - 1) + r(i + 1)
  end do
  print '(a, 4f14.4)', 'a b  ', sum(a), sum(b), maxval(b), b(n/2)
  print '(a, 3f14.4)', 'c d g', sum(c), sum(d), sum(g)
  print '(a, 2f14.4)', 'u v  ', sum(u), sum(v)
  print '(a, 3f14.4)', 'w z  ', sum(w), sum(z), z(5, 5)
  print '(a, 3f14.4)', 'h o p', sum(h), sum(o), sum(p2)
  print '(a, 2f14.4)', 'e f  ', sum(e), sum(f)
  print '(a, 2f14.4)', 'q2   ', sum(q2), q2(n - 1)
  print '(a, 2f14.4)', 'r s  ', sum(r), s(8)
  print '(8f9.2)', b
  print '(8f9.2)', z(:, 4)
contains
  subroutine smooth(x, y, k)
    integer, intent(in) :: k
    real(8), intent(in) :: x(k)
    real(8), intent(inout) :: y(k)
!HPF$ DISTRIBUTE x(CYCLIC(4))
!HPF$ ALIGN y(i) WITH x(i)
    integer :: i2
    forall (i2 = 2:k - 1) y(i2) = y(i2) + x(i2 - 1) + x(i2 + 1)
  end subroutine smooth
end program spmd_overlap_cyclic
