! Mapped arrays handed down a chain of procedures: inherit -> no
! directive -> prescriptive; sections of a cyclic(2) matrix as actuals;
! a 2-D array realigned (transposed) against a template inside a loop
program chain
  implicit none
  integer, parameter :: n = 12
  real :: a(n, n), b(n, n), v(n)
  real, allocatable :: q(:)
  integer :: i, j, it
  real :: s
!hpf$ processors p(2, 2)
!hpf$ template t(n, n)
!hpf$ distribute t(block, cyclic(2)) onto p
!hpf$ dynamic b
!hpf$ align a(i, j) with t(i, j)
!hpf$ align b(i, j) with t(i, j)
!hpf$ distribute v(cyclic(3))
!hpf$ distribute q(block)

  forall (i = 1:n, j = 1:n) a(i, j) = real(mod(i * j, 7)) * 0.25
  b = 1.0
  allocate(q(n))
  q = 0.0
  do it = 1, 3
    if (it == 2) then
!hpf$ realign b(i, j) with t(j, i)
    end if
    do j = 1, n, 3
      call level1(a(:, j), b(:, j + 1), n)
    end do
    s = sum(b)
    write(*, '(a,i2,f12.4)') 'it', it, s
  end do
  v = a(3, :)
  call level1(v, q, n)
  write(*, '(6f9.3)') q
  call level3(b(:, 2), n, s)
  write(*, '(a,f10.3)') 'level3 ', s
  call level3(q, n, s)
  write(*, '(a,f10.3)') 'level3 q ', s
  deallocate(q)
end program chain

subroutine level1(x, y, n)
  implicit none
  integer :: n
  real :: x(n)
  real :: y(n)
!hpf$ inherit x, y
  call level2(x, y, n)
end subroutine level1

subroutine level2(x, y, n)
  implicit none
  integer :: n
  real :: x(n), y(n)
  integer :: k
  do k = 1, n
    y(k) = y(k) + x(n + 1 - k)
  end do
  call level3(y, n, x(1))
end subroutine level2

subroutine level3(z, n, r)
  implicit none
  integer :: n
  real :: z(n), r
!hpf$ distribute z(block)
  real :: w(size(z))
  w = cshift(z, -1)
  r = maxval(w) + sum(z(1:n:2))
end subroutine level3
