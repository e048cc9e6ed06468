! Mapped arrays passed whole to an external FUNCTION of the file (its dummies
! mapped as the actuals, the descriptors passed along): in an assignment, in
! a DO loop, in an array expression (evaluated once, before it, by every
! process), in a logical IF.
program fn
  implicit none
  integer, parameter :: n = 22
  real(8) :: a(n), b(n), s, t
  integer :: i
!HPF$ DISTRIBUTE a(BLOCK)
!HPF$ ALIGN b(i) WITH a(i)
  real(8), external :: wnorm
  forall (i = 1:n) a(i) = real(mod(3 * i, 7), 8)
  b = 2.0d0
  s = wnorm(a, b, n)
  t = 0.0d0
  do i = 1, 3
    t = t + wnorm(a, b, n) * i
  end do
  b = b + wnorm(a, b, n)
  print *, s, t, sum(b)
  if (wnorm(a, b, n) > 10.0d0) print *, 'big'
end program fn

real(8) function wnorm(x, w, m)
  implicit none
  integer, intent(in) :: m
  real(8), intent(in) :: x(m), w(m)
  wnorm = sqrt(sum(w * x * x)) + maxval(x)
end function wnorm
