! One subroutine called with arrays mapped three ways (BLOCK, CYCLIC,
! CYCLIC(3)): compiled once per mapping (the procedure and two clones), so
! that nothing moves at the calls; INTENT(IN) or not.
program two
  implicit none
  integer, parameter :: n = 17
  real(8) :: u(n), v(n), w(n)
  integer :: i, it
!HPF$ DISTRIBUTE u(BLOCK)
!HPF$ DISTRIBUTE v(CYCLIC)
!HPF$ DISTRIBUTE w(CYCLIC(3))
  external :: smooth, total
  forall (i = 1:n) u(i) = real(mod(3 * i, 5), 8)
  v = u * 2.0d0
  w = 1.0d0
  do it = 1, 3
    call smooth(u, n)
    call smooth(v, n)
  end do
  call smooth(w, n)
  call total(u, n)
  call total(v, n)
  print *, sum(u), sum(v), sum(w), u(1), v(n)
end program two

subroutine smooth(x, m)
  implicit none
  integer, intent(in) :: m
  real(8), intent(inout) :: x(m)
  x(2:m-1) = 0.5d0 * x(2:m-1) + 0.25d0 * (x(1:m-2) + x(3:m))
end subroutine smooth

subroutine total(x, m)
  implicit none
  integer, intent(in) :: m
  real(8), intent(in) :: x(m)
  print *, 'total', sum(x)
end subroutine total
