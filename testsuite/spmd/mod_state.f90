! Module with state variables and module procedures (explicit-shape dummy)
module grid
  implicit none
  integer :: nx
  real(8) :: h, t
  real(8) :: coef(5)
  integer, save :: ncall = 0
contains
  subroutine setup(n)
    integer, intent(in) :: n
    integer :: k
    nx = n
    h = 1.0d0 / dble(n)
    t = 0.0d0
    do k = 1, 5
       coef(k) = 1.0d0 / dble(k * k)
    end do
    ncall = 0
  end subroutine setup

  real(8) function flux(a, b)
    real(8), intent(in) :: a, b
    ! upwind-biased flux for advection speed coef(1)
    flux = 0.5d0 * coef(1) * (a + b) - 0.5d0 * abs(coef(1)) * (b - a)
  end function flux

  subroutine advance(u, m)
    integer, intent(in) :: m
    real(8), intent(inout) :: u(m)
    real(8) :: fl(0:m)
    real(8) :: dt
    integer :: i
    dt = 0.4d0 * h / coef(1)
    fl(0) = flux(u(m), u(1))
    do i = 1, m - 1
       fl(i) = flux(u(i), u(i+1))
    end do
    fl(m) = fl(0)
    u(1:m) = u(1:m) - (dt / h) * (fl(1:m) - fl(0:m-1))
    t = t + dt
    ncall = ncall + 1
  end subroutine advance
end module grid

program state
  use grid
  implicit none
  real(8) :: u(100)
!hpf$ distribute u(cyclic)
  integer :: i, step

  call setup(100)
  do i = 1, 100
     if (i > 20 .and. i <= 40) then
        u(i) = 1.0d0
     else
        u(i) = 0.0d0
     end if
  end do

  do step = 1, 10
     call advance(u, nx)
  end do

  write(*, '(a, f14.8)') ' sum(u)  =', sum(u)
  write(*, '(a, f14.8)') ' maxval  =', maxval(u)
  write(*, '(a, i6)')    ' nx      =', nx
  write(*, '(a, f14.8)') ' t       =', t
  write(*, '(a, i6)')    ' ncall   =', ncall
end program state
