! Numeric intrinsics of real codes on mapped arrays and scalars: AINT,
! ANINT, FLOOR, CEILING, MODULO, DIM, ASIN, ACOS, SINH, COSH, TANH, HUGE,
! TINY, EPSILON (of scalars and of a mapped array).
program intr2
  implicit none
  integer, parameter :: n = 10
  real(8) :: x(n), y(n)
  integer :: k(n), i
  real :: s
!HPF$ DISTRIBUTE x(BLOCK)
!HPF$ ALIGN y(i) WITH x(i)
!HPF$ ALIGN k(i) WITH x(i)
  forall (i = 1:n) x(i) = (i - 5) * 0.75d0
  y = aint(x) + anint(x)
  k = floor(x) + ceiling(x) + modulo(int(x * 4.0d0), 3)
  print *, sum(y), sum(k)
  y = dim(x, 0.5d0) + modulo(x, 1.25d0)
  print *, sum(y)
  y = asin(x / 4.0d0) + acos(x / 4.0d0)
  print '(f10.6)', sum(y)
  y = tanh(x / 8.0d0) + sinh(x / 8.0d0) - cosh(x / 8.0d0)
  print '(f10.6)', sum(y)
  s = 2.5
  print *, floor(s), ceiling(-s), anint(-s), modulo(-7, 3), dim(3, 5)
  print *, huge(k) > 1000, tiny(x) < 1.0d-300, epsilon(x) < 1.0d-15, epsilon(s) > 1.0e-8
end program intr2
