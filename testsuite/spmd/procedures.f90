! procedures.f90 -- an internal SUBROUTINE (CONTAINS) and internal and
! external FUNCTIONs called with scalars and replicated (unmapped) arrays,
! from inside array expressions, WHERE masks and DO loops that work
! on distributed arrays (gfortran refuses impure functions in FORALL,
! hpfc refuses PURE). n = 21.
program spmd_procedures
  implicit none
  integer, parameter :: n = 21, m = 5
  real(8), dimension(n) :: x, y
  real(8), dimension(m) :: w
  real(8), dimension(n, m) :: g
  real(8) :: s, poly
  integer :: i, j
  external poly
!HPF$ PROCESSORS q(NUMBER_OF_PROCESSORS())
!HPF$ DISTRIBUTE (BLOCK) ONTO q :: x
!HPF$ DISTRIBUTE (CYCLIC(2)) ONTO q :: y
!HPF$ DISTRIBUTE (*, CYCLIC) ONTO q :: g

  w = (/ 1.0d0, -0.5d0, 0.25d0, 2.0d0, -1.0d0 /)
  call setup(w, s)
  print '(a,es22.14)', 'procedures s ', s

  ! external function in a DO loop and inside an array expression
  do i = 1, n
    x(i) = poly(dble(i)/dble(n), w, m)
  end do
  y = x*2.0d0 + poly(0.5d0, w, m)
  print '(a,es22.14)', 'procedures x ', sum(x*dble((/ (i, i = 1, n) /)))
  print '(a,es22.14)', 'procedures y ', sum(y)

  ! internal function in a DO loop over a distributed array, and in a mask
  do i = 1, n
    y(i) = scale2(x(i), i) + y(i)
  end do
  print '(a,es22.14)', 'procedures y2 ', sum(y*dble((/ (i, i = 1, n) /)))
  where (y > scale2(1.0d0, 3)) x = x - wsum(w)
  print '(a,es22.14)', 'procedures x2 ', sum(x)

  forall (i = 1:n, j = 1:m) g(i, j) = dble(i*j) + w(j)
  g(:, 2) = g(:, 2) + scale2(g(3, 2), 2)
  do j = 1, m
    do i = 1, n, 4
      g(i, j) = poly(g(i, j)/100.0d0, w, j)
    end do
  end do
  print '(a,es22.14)', 'procedures g ', sum(g)
  call bump(w, 3)
  print '(a,es22.14)', 'procedures w ', wsum(w)

  ! internal procedures that use the host's distributed arrays
  call smooth(0.25d0)
  print '(a,es22.14)', 'procedures smooth x ', sum(x*dble((/ (i, i = 1, n) /)))
  print '(a,es22.14)', 'procedures smooth y ', sum(y*dble((/ (i, i = 1, n) /)))
  print '(a,es22.14)', 'procedures xat ', xat(5) + xat(n)
  ! such a function (it communicates) called for an element store and in
  ! an array expression: every process must make the same calls
  do i = 1, n, 2
    y(i) = xat(n + 1 - i)
  end do
  x = x + xat(3)
  print '(a,es22.14)', 'procedures xat y ', sum(y*dble((/ (i, i = 1, n) /)))
  print '(a,es22.14)', 'procedures xat x ', sum(x*dble((/ (i, i = 1, n) /)))

contains

  subroutine smooth(c)
    real(8), intent(in) :: c
    integer :: k
    x(2:n) = x(2:n) + c*x(1:n - 1)
    do k = 1, n, 3
      y(k) = x(n + 1 - k) - c
    end do
    y = y + sum(x)
  end subroutine smooth

  real(8) function xat(k)
    integer, intent(in) :: k
    xat = x(k)*2.0d0 + maxval(y)
  end function xat

  subroutine setup(v, total)
    real(8), intent(in) :: v(:)
    real(8), intent(out) :: total
    integer :: k
    total = 0.0d0
    do k = 1, size(v)
      total = total + v(k)*dble(k)
    end do
  end subroutine setup

  subroutine bump(v, k)
    real(8), intent(inout) :: v(:)
    integer, intent(in) :: k
    v(k) = v(k) + 10.0d0
    v = v*1.5d0
  end subroutine bump

  real(8) function scale2(a, k)
    real(8), intent(in) :: a
    integer, intent(in) :: k
    scale2 = a*dble(k) - 1.0d0
  end function scale2

  real(8) function wsum(v)
    real(8), intent(in) :: v(:)
    wsum = sum(v*v)
  end function wsum

end program spmd_procedures

! Horner evaluation of the polynomial with coefficients c(1:k) at t
real(8) function poly(t, c, k)
  implicit none
  real(8), intent(in) :: t
  integer, intent(in) :: k
  real(8), intent(in) :: c(k)
  integer :: i
  poly = 0.0d0
  do i = k, 1, -1
    poly = poly*t + c(i)
  end do
end function poly
