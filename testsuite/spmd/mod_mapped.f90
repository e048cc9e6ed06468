! Module arrays carrying HPF mapping directives
module decomp
  implicit none
  integer, parameter :: n = 32
  real :: a(n), b(n)
!hpf$ distribute a(block)
!hpf$ align b(i) with a(i)
contains
  subroutine stencil()
    b(1) = a(1)
    b(n) = a(n)
    b(2:n-1) = 0.5 * (a(1:n-2) + a(3:n))
  end subroutine stencil
end module decomp

program mapped
  use decomp
  implicit none
  integer :: i

  do i = 1, n
     a(i) = real(mod(i * 7, 11)) + 0.5 * real(i)
  end do

  call stencil()
  a = b
  call stencil()

  write(*, '(a, f12.5)') ' sum(b)  =', sum(b)
  write(*, '(a, 4f10.5)') ' b(1:4)  =', b(1:4)
end program mapped
