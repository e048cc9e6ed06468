! Mapped ALLOCATABLE arrays passed whole to subroutines (dummies of their
! bounds, checked at run time), before and after a reallocation of another
! size; two arrays passed in turn to the two dummies of a stencil (each
! gets the ghost cells the stencil needs), fixed-size ones too (another
! subroutine: their template is not the ALLOCATABLE arrays').
program apass
  implicit none
  real(8), allocatable :: u(:), v(:), g(:, :)
  real(8) :: p(13), q(13)
  integer :: n, m, i, j
!HPF$ DISTRIBUTE p(BLOCK)
!HPF$ ALIGN q(i) WITH p(i)
!HPF$ DISTRIBUTE u(BLOCK)
!HPF$ ALIGN v(i) WITH u(i)
!HPF$ DISTRIBUTE g(*, CYCLIC)
  external :: relax, colmax, relaxf
  n = 19
  m = 7
  allocate(u(n), v(n), g(n, m))
  forall (i = 1:n) u(i) = real(mod(5 * i, 9), 8)
  v = 0.0d0
  forall (i = 1:n, j = 1:m) g(i, j) = real(i * j, 8)
  call relax(u, v, n)
  call relax(v, u, n)
  call colmax(g, n, m)
  print *, sum(u), sum(v), u(1), v(n)
  deallocate(u, v)
  n = 11
  allocate(u(n), v(n))
  u = 1.0d0
  v = 2.0d0
  call relax(u, v, n)
  print *, sum(v)
  forall (i = 1:13) p(i) = real(i, 8)
  q = 1.0d0
  call relaxf(p, q, 13)
  call relaxf(q, p, 13)
  print *, sum(p), sum(q)
end program apass

subroutine relax(x, y, k)
  implicit none
  integer, intent(in) :: k
  real(8), intent(in) :: x(k)
  real(8), intent(inout) :: y(k)
  y(2:k-1) = y(2:k-1) + 0.5d0 * (x(1:k-2) + x(3:k))
end subroutine relax

subroutine relaxf(x, y, k)
  implicit none
  integer, intent(in) :: k
  real(8), intent(in) :: x(k)
  real(8), intent(inout) :: y(k)
  y(2:k-1) = y(2:k-1) + 0.25d0 * (x(1:k-2) + x(3:k))
end subroutine relaxf

subroutine colmax(a, k, l)
  implicit none
  integer, intent(in) :: k, l
  real(8), intent(in) :: a(k, l)
  print *, 'colmax', maxval(a), sum(a(:, l))
end subroutine colmax
