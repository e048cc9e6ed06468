! Allocatable module arrays with module procedures
module fields
  implicit none
  real, allocatable :: f(:), g(:)
  integer :: m
contains
  subroutine alloc_fields(k)
    integer, intent(in) :: k
    allocate(f(k), g(k))
    f = 0.0
    g = 0.0
  end subroutine alloc_fields

  subroutine smooth()
    f(1) = g(1)
    f(m) = g(m)
    f(2:m-1) = 0.25 * g(1:m-2) + 0.5 * g(2:m-1) + 0.25 * g(3:m)
    g(1:m) = f(1:m)
  end subroutine smooth
end module fields

program alloc_main
  use fields
  implicit none
  integer :: i, it
  real :: x

  m = 50
  call alloc_fields(m)
  do i = 1, m
     x = real(i - 1) / real(m - 1)
     g(i) = x * (1.0 - x) + 0.1 * real(mod(i, 3) - 1)
  end do

  do it = 1, 4
     call smooth()
  end do

  write(*, '(a, f10.6)') ' maxval(f) =', maxval(f)
  write(*, '(a, f10.6)') ' minval(f) =', minval(f)
  write(*, '(a, i4)')    ' size(f)   =', size(f)
  deallocate(f, g)
  write(*, '(a, l2)')    ' allocated =', allocated(f)
end program alloc_main
