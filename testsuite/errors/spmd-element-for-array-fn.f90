! An element of a mapped array as the actual of a function's array dummy (sequence association).
program p
  implicit none
  integer, parameter :: n = 8
  real(8) :: a(n), s
  integer :: i
!HPF$ DISTRIBUTE a(BLOCK)
  forall (i = 1:n) a(i) = dble(i)
  s = total(a(1), n)
  print *, s
contains
  real(8) function total(x, m)
    integer :: m
    real(8) :: x(m)
    total = sum(x)
  end function total
end program p
