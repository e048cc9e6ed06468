! A subroutine with internal procedures called with arrays mapped two ways
! (BLOCK, CYCLIC): its clone carries copies of its internal procedures,
! one using the host's dummy by host association, one given it as an
! argument (bound in each copy to the mapping its host has).
program host_clone
  implicit none
  integer, parameter :: n = 19
  real(8) :: a(n), b(n)
  integer :: i
!HPF$ DISTRIBUTE a(BLOCK)
!HPF$ DISTRIBUTE b(CYCLIC)
  external :: scale
  forall (i = 1:n) a(i) = real(i, 8)
  b = a(n:1:-1)
  call scale(a, n)
  call scale(b, n)
  call scale(a, n)
  print *, sum(a), a(1), a(n)
  print *, sum(b), b(1), b(n)
end program host_clone

subroutine scale(x, n)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: x(n)
  call twice()
  call addto(x, n)
contains
  subroutine twice()
    x(2:n) = x(2:n) + x(1:n-1)
  end subroutine twice
  subroutine addto(y, m)
    integer, intent(in) :: m
    real(8), intent(inout) :: y(m)
    y = y + 0.5d0
  end subroutine addto
end subroutine scale
