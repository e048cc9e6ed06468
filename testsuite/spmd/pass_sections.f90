! Sections and expressions of mapped arrays as actual arguments: columns of a
! (BLOCK, CYCLIC) matrix and a strided section of a CYCLIC vector go to
! external subroutines as replicated copies, and come back after the call
! unless the dummy is INTENT(IN); an expression goes as a copy only.
program sec
  implicit none
  integer, parameter :: n = 13, m = 6
  real(8) :: a(n, m), v(n)
  integer :: i, j
!HPF$ DISTRIBUTE a(BLOCK, CYCLIC)
!HPF$ DISTRIBUTE v(CYCLIC)
  external :: tridiag, show
  forall (i = 1:n, j = 1:m) a(i, j) = real(i + 2 * j, 8)
  v = 1.0d0
  do j = 1, m
    call tridiag(a(:, j), n)
  end do
  call show(a(3, :), m)
  call show(v(2:n:3) * 2.0d0, 4)
  call tridiag(v(1:n-1), n - 1)
  print *, sum(a), sum(v), a(n, m), v(n - 1)
end program sec

subroutine tridiag(x, k)
  implicit none
  integer, intent(in) :: k
  real(8), intent(inout) :: x(k)
  integer :: i
  do i = 2, k
    x(i) = x(i) + 0.5d0 * x(i - 1)
  end do
end subroutine tridiag

subroutine show(y, k)
  implicit none
  integer, intent(in) :: k
  real(8), intent(in) :: y(k)
  print *, 'show', k, sum(y), y(1), y(k)
end subroutine show
