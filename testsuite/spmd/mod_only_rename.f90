! Two modules with clashing names; USE with ONLY and renaming
module mod_a
  implicit none
  integer, parameter :: n = 8
contains
  real function norm(x, k)
    integer, intent(in) :: k
    real, intent(in) :: x(k)
    norm = sqrt(sum(x * x))
  end function norm
end module mod_a

module mod_b
  implicit none
  integer, parameter :: n = 5
contains
  real function norm(x, k)
    integer, intent(in) :: k
    real, intent(in) :: x(k)
    norm = maxval(abs(x))
  end function norm

  subroutine vec_scale(x, k, s)
    integer, intent(in) :: k
    real, intent(inout) :: x(k)
    real, intent(in) :: s
    x = s * x
  end subroutine vec_scale
end module mod_b

program only_rename
  use mod_a, only: na => n, norm_a => norm
  use mod_b, only: n, vec_scale
  implicit none
  real :: xa(na), xb(n)
!hpf$ distribute xa(block)
  integer :: i

  do i = 1, na
     xa(i) = real(i)
  end do
  do i = 1, n
     xb(i) = real(n - i + 1)
  end do

  write(*, '(a, 2i4)') ' na, n          =', na, n
  write(*, '(a, f10.5)') ' norm_a(xa)     =', norm_a(xa, na)
  call vec_scale(xb, n, 0.5)
  write(*, '(a, 5f8.3)') ' scaled xb      =', xb
  write(*, '(a, f10.5)') ' norm_a(xb)     =', norm_a(xb, n)
  call report(xa)
end program only_rename

subroutine report(x)
  use mod_a
  implicit none
  real, intent(in) :: x(n)
  write(*, '(a, i4)') ' report: n      =', n
  write(*, '(a, f10.5)') ' report: norm   =', norm(x, n)
  write(*, '(a, f10.5)') ' report: sum    =', sum(x)
end subroutine report
