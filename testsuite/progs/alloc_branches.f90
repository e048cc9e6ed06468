! ALLOCATABLE mapped arrays, redistributed in IF branches, passed to
! explicit-shape external dummies and assumed-shape internal procedures
program alloc_redist
  implicit none
  integer, parameter :: n = 40, m = 12
  real, allocatable :: a(:), b(:)
  integer, allocatable :: k(:, :)
  integer :: i, j, pass
  real :: s
!hpf$ dynamic a, b
!hpf$ distribute a(block)
!hpf$ align b(:) with a(:)
!hpf$ distribute k(*, block)

  allocate(a(n), b(n))
  allocate(k(m, n))
  do i = 1, n
    a(i) = real(mod(3*i, 11)) * 0.5
    b(i) = 0.0
  end do
  forall (i = 1:m, j = 1:n) k(i, j) = mod(i + 2*j, 7)

  do pass = 1, 3
    if (pass == 2) then
!hpf$ redistribute a(cyclic)
    else if (pass == 3) then
!hpf$ redistribute a(cyclic(3))
    end if
    call axpy(a, b, n, 2.0)
    call shiftit(b)
    s = total(a) + total(b)
    write(*, '(a,i2,a,f12.3)') 'pass', pass, ' s=', s
  end do

  call colsum(k(:, 5), i)
  write(*, '(a,i6)') 'col 5 sum', i
  call colsum(k(:, n), i)
  write(*, '(a,i6)') 'col n sum', i
  write(*, '(a,i8)') 'k total', sum(k)
  write(*, '(4f8.2)') b(1:8)
  deallocate(a, b, k)

contains

  subroutine shiftit(x)
    real :: x(:)
    real :: tmp(size(x))
    tmp = cshift(x, 2)
    x = 0.5 * (x + tmp)
  end subroutine shiftit

  real function total(x)
    real, intent(in) :: x(:)
    total = sum(x)
  end function total

  subroutine colsum(c, isum)
    integer, intent(in) :: c(:)
    integer, intent(out) :: isum
    isum = sum(c) + maxval(c)
  end subroutine colsum

end program alloc_redist

subroutine axpy(x, y, n, alpha)
  implicit none
  integer :: n
  real :: x(n), y(n), alpha
  integer :: i
!hpf$ independent
  do i = 1, n
    y(i) = y(i) + alpha * x(i)
  end do
end subroutine axpy
