! An element of a mapped array as the actual of an array dummy (sequence association).
program p
  implicit none
  integer, parameter :: n = 8
  real(8) :: a(n)
  integer :: i
!HPF$ DISTRIBUTE a(BLOCK)
  forall (i = 1:n) a(i) = dble(i)
  call f(a(1), n)
  print *, sum(a)
contains
  subroutine f(x, m)
    integer :: m
    real(8) :: x(m)
    x(2) = 0.0d0
  end subroutine f
end program p
