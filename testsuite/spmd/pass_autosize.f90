! Automatic arrays of a procedure sized by SIZE, LBOUND and UBOUND of a
! dummy passed a mapped array (of fixed bounds, and ALLOCATABLE): the
! global bounds, not those of the local part.
program autosize
  implicit none
  integer, parameter :: n = 23
  real(8) :: a(n)
  real(8), allocatable :: b(:, :)
  integer :: i, j, m
!HPF$ DISTRIBUTE a(BLOCK)
!HPF$ DISTRIBUTE b(CYCLIC, BLOCK)
  m = 9
  allocate (b(m, m + 1))
  forall (i = 1:n) a(i) = real(mod(7 * i, 11), 8)
  forall (i = 1:m, j = 1:m + 1) b(i, j) = real(i + 2 * j, 8)
  call rev(a)
  call rev(a)
  call twist(b)
  print *, sum(a), a(1), a(n)
  print *, sum(b), b(1, 1), b(m, m)
  deallocate (b)
contains
  subroutine rev(x)
    real(8), intent(inout) :: x(:)
    real(8) :: t(size(x)), u(lbound(x, 1):ubound(x, 1))
    integer :: k
    t = x
    u = 1.0d0
    do k = 1, size(x)
      x(k) = t(size(x) + 1 - k) + u(k)
    end do
  end subroutine rev
  subroutine twist(y)
    real(8), intent(inout) :: y(:, :)
    real(8) :: w(size(y, 2), size(y, 1))
    w = transpose(y)
    y(1, :) = w(:, size(y, 1))
  end subroutine twist
end program autosize
