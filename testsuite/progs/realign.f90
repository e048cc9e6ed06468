! Dynamic realignment: y is realigned to a reversed copy of x's mapping,
! back to the identity, onto a strided CYCLIC template, and inside a
! convergence loop whose top/end REALIGNs restore the same alignment.
! All data and coefficients are dyadic, so every checksum is exact.
program realign
  implicit none
  integer, parameter :: n = 25, m = 50
  real(kind=8) :: x(n), y(n), z(n)
  real(kind=8) :: res
  integer :: i, iter
!HPF$ TEMPLATE tt(m)
!HPF$ DISTRIBUTE tt(CYCLIC)
!HPF$ DYNAMIC y
!HPF$ DISTRIBUTE x(BLOCK)
!HPF$ ALIGN y(i) WITH x(i)

  do i = 1, n
    x(i) = 0.125d0 * real(i, 8)
    y(i) = 0.0625d0 * real(mod(7 * i, 11), 8)
  end do

  write (*, '(a, 2i10)') 'extents (n, m):', n, m

  ! reversed relation: y(i) lives with x(26-i)
!HPF$ REALIGN y(i) WITH x(26-i)
  do i = 1, n
    y(i) = y(i) + x(n + 1 - i)
  end do
  write (*, '(a, 2es22.14)') 'reversed:  ', sum(y), y(1)

!HPF$ REALIGN y(i) WITH x(i)
  y = y + x
  write (*, '(a, 2es22.14)') 'identity:  ', sum(y), y(n)

!HPF$ REALIGN y(i) WITH tt(2*i)
  where (y > 3.5d0) y = y - 1.0d0
  write (*, '(a, 2es22.14)') 'template:  ', sum(y), maxval(y)

  ! convergence loop: y relaxes toward x, residual halves each sweep
  res = maxval(abs(y - x))
  iter = 0
  do while (res >= 1.0d-6)
!HPF$ REALIGN y(i) WITH x(i)
    iter = iter + 1
    y = 0.5d0 * (y + x)
    res = maxval(abs(y - x))
    write (*, '(i10, es22.14)') iter, res
!HPF$ REALIGN y(i) WITH tt(2*i)
  end do
  write (*, '(a, i10)') 'iterations:', iter
  write (*, '(a, es22.14)') 'sum(y) = ', sum(y)

  ! z is not mapped, so it may be passed to a procedure
  z = y
  call smooth(z, n)
  write (*, '(a, 2es22.14)') 'smoothed:  ', sum(z), z(13)
end program realign

subroutine smooth(w, nw)
  implicit none
  integer, intent(in) :: nw
  real(kind=8), intent(inout) :: w(nw)
  real(kind=8) :: tmp(nw)
  integer :: i
  tmp = w
  do i = 2, nw - 1
    w(i) = 0.25d0 * tmp(i-1) + 0.5d0 * tmp(i) + 0.25d0 * tmp(i+1)
  end do
end subroutine smooth
