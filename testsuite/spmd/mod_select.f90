! mod_select.f90 - a present-day style solver: a module of kind and
! problem parameters with procedures, the scheme chosen by SELECT CASE on
! an integer and on a character option, literals with the module's kind,
! the result checked against a tolerance from the module.
module setup
  implicit none
  integer, parameter :: wp = selected_real_kind(12, 100)
  integer, parameter :: n = 40
  real(wp), parameter :: tol = 1.0e-8_wp
  character(len=8), parameter :: scheme = 'jacobi'
contains
  subroutine init(u)
    real(wp), intent(out) :: u(n)
    integer :: i
    do i = 1, n
       u(i) = real(i - 1, wp) / real(n - 1, wp)
    end do
    u(2:n-1) = 0.0_wp
  end subroutine init

  integer function sweeps_for(level)
    integer, intent(in) :: level
    select case (level)
    case (:0)
       sweeps_for = 1
    case (1, 2)
       sweeps_for = 10 * level
    case (3:5)
       sweeps_for = 100
    case default
       sweeps_for = 500
    end select
  end function sweeps_for
end module setup

program mod_select
  use setup
  implicit none
  real(wp) :: u(n), v(n), err
  integer :: level, k, used
!hpf$ distribute u(block)
!hpf$ align v(i) with u(i)
  do level = 0, 3
     call init(u)
     used = sweeps_for(level)
     do k = 1, used
        select case (scheme)
        case ('jacobi')
           v(2:n-1) = 0.5_wp * (u(1:n-2) + u(3:n))
        case default
           v(2:n-1) = u(2:n-1)
        end select
        v(1) = u(1)
        v(n) = u(n)
        err = maxval(abs(v - u))
        u = v
        if (err < tol) exit
     end do
     print '(a, i2, a, i4, a, es10.3)', 'level', level, ' sweeps', used, ' change', err
  end do
end program mod_select
