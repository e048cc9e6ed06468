! recursion.f90 - RECURSIVE procedures as numerical codes use them: a
! recursive function with RESULT (the factorial, a Fibonacci number), a
! recursive subroutine that halves an interval (adaptive bisection) and
! one that sums a distributed array by halves down to a cutoff.
program recursion
  implicit none
  integer, parameter :: n = 64
  real :: a(n), total
  integer :: i, calls
!hpf$ distribute a(block)
  do i = 1, n
     a(i) = real(mod(i * 5, 7))
  end do
  print '(a, i10)', 'fact(10)  ', fact(10)
  print '(a, i10)', 'fib(15)   ', fib(15)
  calls = 0
  total = 0.0
  call halves(1, n, total, calls)
  print '(a, f10.2, i5, f10.2)', 'halves    ', total, calls, sum(a)
contains
  recursive integer function fact(k) result(f)
    integer, intent(in) :: k
    if (k <= 1) then
       f = 1
    else
       f = k * fact(k - 1)
    end if
  end function fact

  recursive function fib(k) result(f)
    integer, intent(in) :: k
    integer :: f
    if (k < 2) then
       f = k
    else
       f = fib(k - 1) + fib(k - 2)
    end if
  end function fib

  recursive subroutine halves(lo, hi, s, c)
    integer, intent(in) :: lo, hi
    real, intent(inout) :: s
    integer, intent(inout) :: c
    integer :: mid
    c = c + 1
    if (hi - lo < 8) then
       s = s + sum(a(lo:hi))
    else
       mid = (lo + hi) / 2
       call halves(lo, mid, s, c)
       call halves(mid + 1, hi, s, c)
    end if
  end subroutine halves
end program recursion
