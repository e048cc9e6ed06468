! mod_private.f90 - modules that hide their workings, as library-style
! codes write them: PRIVATE by default with a PUBLIC interface list, a
! PRIVATE helper procedure and a PRIVATE work array (mapped), a PUBLIC
! attribute on a constant, and a module that re-exports what it uses.
module field_ops
  implicit none
  private
  public :: smooth, field_sum, nf
  integer, parameter, public :: npts = 24
  integer, parameter :: nf = 3
  real :: work(npts)
!hpf$ distribute work(block)
contains
  subroutine smooth(u, m)
    integer, intent(in) :: m
    real, intent(inout) :: u(m)
    integer :: k
    do k = 1, nf
       call one_pass(u, m)
    end do
  end subroutine smooth

  subroutine one_pass(u, m)
    integer, intent(in) :: m
    real, intent(inout) :: u(m)
    work(1:m) = u
    u(2:m-1) = (work(1:m-2) + 2.0 * work(2:m-1) + work(3:m)) / 4.0
  end subroutine one_pass

  real function field_sum(u, m)
    integer, intent(in) :: m
    real, intent(in) :: u(m)
    field_sum = sum(u)
  end function field_sum
end module field_ops

module app
  use field_ops
  implicit none
  real, parameter :: scale = 0.5
end module app

program mod_private
  use app
  implicit none
  real :: u(npts)
  integer :: i
!hpf$ distribute u(cyclic)
  do i = 1, npts
     u(i) = real(mod(i, 5))
  end do
  call smooth(u, npts)
  print '(a, i3, f9.4)', 'passes, sum ', nf, field_sum(u, npts) * scale
  print '(6f8.4)', u(1:6)
end program mod_private
