! LU factorization without pivoting, column cyclic, then redistributed
! by rows for the triangular solves (exact: integer factors, pivots 1 or 2)
program lu_cyclic
  implicit none
  integer, parameter :: n = 20
  real, allocatable :: a(:, :), a0(:, :)
  real :: x(n), b(n), r(n)
  integer :: i, j, k
!hpf$ dynamic a
!hpf$ distribute a(*, cyclic)
!hpf$ distribute a0(*, block)
!hpf$ distribute (block) :: x, b, r

  allocate(a(n, n), a0(n, n))
  call build(a0, n)
  a = a0
  do i = 1, n
    x(i) = real(mod(i, 5) - 2)
  end do
  call matvec(a0, x, b, n)

  do k = 1, n - 1
!hpf$ independent
    do i = k + 1, n
      a(i, k) = a(i, k) / a(k, k)
    end do
!hpf$ independent, new(i)
    do j = k + 1, n
      do i = k + 1, n
        a(i, j) = a(i, j) - a(i, k) * a(k, j)
      end do
    end do
  end do
  write(*, '(a,f8.1)') 'max |u| ', maxval(abs(a))
  write(*, '(a,f8.1)') 'trace   ', sum((/ (a(i, i), i = 1, n) /))

!hpf$ redistribute a(block, *)
  call trisolve(a, b)
  r = b - x
  write(*, '(a,f8.3)') 'max err ', maxval(abs(r))
  write(*, '(10f6.1)') b
  call matvec(a0, b, r, n)
  write(*, '(a,f10.2,i4)') 'check ', sum(r), maxloc(r, 1)
  deallocate(a, a0)

contains

  subroutine trisolve(f, y)
    real, intent(in) :: f(:, :)
    real :: y(:)
    integer :: ii, m
    m = size(y)
    do ii = 2, m
      y(ii) = y(ii) - sum(f(ii, 1:ii-1) * y(1:ii-1))
    end do
    do ii = m, 1, -1
      if (ii < m) y(ii) = y(ii) - sum(f(ii, ii+1:m) * y(ii+1:m))
      y(ii) = y(ii) / f(ii, ii)
    end do
  end subroutine trisolve

end program lu_cyclic

subroutine build(a, n)
  implicit none
  integer :: n
  real :: a(n, n)
!hpf$ inherit a
  real :: el(n, n), u(n, n)
  integer :: i, j, k
  el = 0.0
  u = 0.0
  do i = 1, n
    el(i, i) = 1.0
    u(i, i) = real(1 + mod(i, 2))
    do j = 1, i - 1
      el(i, j) = real(mod(i + j, 3) - 1)
    end do
    do j = i + 1, n
      u(i, j) = real(mod(i * j, 5) - 2)
    end do
  end do
  a = 0.0
  do k = 1, n
    forall (i = 1:n, j = 1:n) a(i, j) = a(i, j) + el(i, k) * u(k, j)
  end do
end subroutine build

subroutine matvec(a, x, y, n)
  implicit none
  integer :: n
  real, intent(in) :: a(n, n), x(n)
  real, intent(out) :: y(n)
!hpf$ distribute a *
!hpf$ inherit x, y
  integer :: i
!hpf$ independent
  do i = 1, n
    y(i) = sum(a(i, :) * x)
  end do
end subroutine matvec
