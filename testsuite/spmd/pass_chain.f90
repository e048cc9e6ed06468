! Mapped arrays passed along a chain of calls: a dummy passed on to another
! procedure, a prescriptive (CYCLIC) dummy with another dummy ALIGNed to
! it (both remapped on entry, back on exit, a RETURN on the way), an
! overlap shift in the last callee that widens the ghost cells of the
! array the main program declared.
program chain
  implicit none
  integer, parameter :: n = 23
  real(8) :: a(n), b(n)
  integer :: i
!HPF$ DISTRIBUTE a(BLOCK)
!HPF$ ALIGN b(i) WITH a(i)
  external :: outer
  forall (i = 1:n) a(i) = real(i, 8)
  b = 0.0d0
  call outer(a, b, n)
  print *, sum(a), sum(b), b(1), b(n)
  call outer(a, b, n)
  print *, sum(a), sum(b), b(1), b(n)
end program chain

subroutine outer(x, y, n)
  implicit none
  integer, intent(in) :: n
  real(8) :: x(n), y(n)
  external :: inner, wide
  call inner(x, y, n)
  call wide(y, n)
end subroutine outer

subroutine inner(p, q, m)
  implicit none
  integer, intent(in) :: m
  real(8) :: p(m), q(m)
  integer :: i
!HPF$ DISTRIBUTE p(CYCLIC)
!HPF$ ALIGN q(i) WITH p(i)
  q = q + 2.0d0 * p
  if (m > 100) return
  p = p + 1.0d0
end subroutine inner

subroutine wide(z, m)
  implicit none
  integer, intent(in) :: m
  real(8) :: z(m)
  z(4:m-3) = z(4:m-3) + z(1:m-6) + z(7:m)
end subroutine wide
