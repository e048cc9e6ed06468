! Allocatable arrays realigned with one another inside a loop and
! allocated/deallocated per phase; the phase size comes from a PARAMETER
program phases
  implicit none
  integer, parameter :: n = 32, nph = 3
  real, allocatable :: base(:), r(:), c(:, :)
  integer :: i, j, ph
  real :: tot
!hpf$ dynamic base, r
!hpf$ distribute base(block)
!hpf$ align r(i) with base(i)
!hpf$ distribute c(*, cyclic)

  allocate(base(n))
  do i = 1, n
    base(i) = real(i) * 0.5
  end do
  tot = 0.0
  do ph = 1, nph
    allocate(r(n), c(4, n))
    if (ph == 2) then
!hpf$ realign r(i) with base(n + 1 - i)
    end if
    if (ph == 3) then
!hpf$ redistribute base(cyclic(5))
!hpf$ realign r(i) with base(i)
    end if
    r = base * real(ph)
    forall (i = 1:4, j = 1:n) c(i, j) = r(j) + real(i)
    call work(r, c)
    tot = tot + sum(r) + sum(c(2, :))
    write(*, '(a,i2,2f12.3)') 'phase', ph, sum(r), maxval(c)
    deallocate(r, c)
  end do
  write(*, '(a,f12.3)') 'total', tot

contains

  subroutine work(x, m)
    real :: x(:)
    real :: m(:, :)
    integer :: k
    real :: acc(size(m, 1))
    do k = 1, size(m, 1)
      acc(k) = sum(m(k, :))
    end do
    x = cshift(x, 3) + acc(1) * 0.0625
    m(1, :) = x
  end subroutine work

end program phases
