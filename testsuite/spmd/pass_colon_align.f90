! ALLOCATABLE arrays aligned in the colon form (b(:) WITH a(:)), b with
! other lower bounds than a, passed to external procedures: the dummy's
! alignment offset comes from the descriptor.
program colon_ext
  implicit none
  integer, parameter :: n = 11
  real(8), allocatable :: a(:), b(:), c(:, :), d(:, :)
  integer :: i, j
!HPF$ DISTRIBUTE a(CYCLIC(2))
!HPF$ ALIGN b(:) WITH a(:)
!HPF$ DISTRIBUTE c(BLOCK, BLOCK)
!HPF$ ALIGN d(:, :) WITH c(:, :)
  external :: shift1, fill2
  allocate (a(n), b(0:n - 1), c(n, 7), d(-2:n - 3, 7))
  forall (i = 1:n) a(i) = real(i, 8)
  forall (i = 0:n - 1) b(i) = real(2 * i, 8)
  call shift1(b, a, n)
  call fill2(d, c, n, 7)
  print *, sum(a), sum(b), b(0), b(n - 1)
  print *, sum(c), sum(d), d(-2, 1), d(n - 3, 7)
end program colon_ext

subroutine shift1(x, y, n)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: x(0:n - 1)
  real(8), intent(in) :: y(n)
  x(1:n - 1) = x(1:n - 1) + y(1:n - 1)
end subroutine shift1

subroutine fill2(x, y, n, m)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(out) :: x(-2:n - 3, m)
  real(8), intent(out) :: y(n, m)
  integer :: i, j
  forall (i = -2:n - 3, j = 1:m) x(i, j) = real(i + 10 * j, 8)
  y = x + 1.0d0
end subroutine fill2
