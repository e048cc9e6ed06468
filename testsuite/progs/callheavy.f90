! callheavy.f90 -- a Gray-Scott reaction-diffusion model on a periodic
! square grid, written as a driver that only calls subroutines: almost
! all the time is spent in them.
!
!   u_t = du lap(u) - u v^2 + f (1 - u)
!   v_t = dv lap(v) + u v^2 - (f + kk) v
! explicit Euler with dt = 1 on a unit grid of n x n cells, with one ring
! of ghost cells (0 and n+1) refreshed from the opposite side each step.
! The driver's time loop calls, per step:
!   feedrate (external, scalars only)  the feed f, slowly ramped
!   periodic   the ghost rows and columns of u and v (array assignments)
!   laplace    the 5-point Laplacians of u and v (FORALL)
!   react      the reaction terms and the update (array assignments)
!   diagnose   every nout steps: the totals of u and v (SUM)
! The internal subroutines use the host's distributed arrays (hpfc does
! not pass mapped arrays as arguments).
! Mapping: u, v, lu, lv, uvv (0:n+1, 0:n+1) distributed (BLOCK, BLOCK)
! onto a 2-D arrangement.
! Output: the totals every nout steps, then u and v at the centre.

program callheavy
  implicit none
  integer, parameter :: n = 40
  integer, parameter :: nstep = 40
  integer, parameter :: nout = 10
  real(8), parameter :: du = 0.16d0, dv = 0.08d0, kk = 0.065d0
  real(8), dimension(0:n + 1, 0:n + 1) :: u, v, lu, lv, uvv
  real(8) :: f, su, sv
  integer :: step
!HPF$ PROCESSORS pg(2, 2)
!HPF$ DISTRIBUTE (BLOCK, BLOCK) ONTO pg :: u, v, lu, lv, uvv

  call initial()
  do step = 1, nstep
    call feedrate(step, nstep, f)
    call periodic()
    call laplace()
    call react(f)
    if (mod(step, nout) == 0) then
      call diagnose(su, sv)
      print '(a,i10,2es22.14)', 'callheavy step totals ', step, su, sv
    end if
  end do
  print '(a,es22.14)', 'callheavy u centre ', u(n/2, n/2)
  print '(a,es22.14)', 'callheavy v centre ', v(n/2, n/2)

contains

  ! u = 1, v = 0, with a perturbed square seed in the middle
  subroutine initial()
    integer :: i, j
    u = 1.0d0
    v = 0.0d0
    forall (i = n/2 - 4:n/2 + 4, j = n/2 - 4:n/2 + 4)
      u(i, j) = 0.5d0 + 0.01d0*dble(mod(i*j, 7))
      v(i, j) = 0.25d0 - 0.01d0*dble(mod(i + j, 5))
    end forall
  end subroutine initial

  ! periodic ghost cells: rows first, then whole columns (corners too)
  subroutine periodic()
    u(0, 1:n) = u(n, 1:n)
    u(n + 1, 1:n) = u(1, 1:n)
    v(0, 1:n) = v(n, 1:n)
    v(n + 1, 1:n) = v(1, 1:n)
    u(:, 0) = u(:, n)
    u(:, n + 1) = u(:, 1)
    v(:, 0) = v(:, n)
    v(:, n + 1) = v(:, 1)
  end subroutine periodic

  subroutine laplace()
    integer :: i, j
    forall (i = 1:n, j = 1:n)                                               &
      lu(i, j) = u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1) - 4.0d0*u(i, j)
    forall (i = 1:n, j = 1:n)                                               &
      lv(i, j) = v(i - 1, j) + v(i + 1, j) + v(i, j - 1) + v(i, j + 1) - 4.0d0*v(i, j)
  end subroutine laplace

  subroutine react(feed)
    real(8), intent(in) :: feed
    uvv(1:n, 1:n) = u(1:n, 1:n)*v(1:n, 1:n)*v(1:n, 1:n)
    u(1:n, 1:n) = u(1:n, 1:n) + du*lu(1:n, 1:n) - uvv(1:n, 1:n)              &
                + feed*(1.0d0 - u(1:n, 1:n))
    v(1:n, 1:n) = v(1:n, 1:n) + dv*lv(1:n, 1:n) + uvv(1:n, 1:n)              &
                - (feed + kk)*v(1:n, 1:n)
  end subroutine react

  subroutine diagnose(tu, tv)
    real(8), intent(out) :: tu, tv
    tu = sum(u(1:n, 1:n))
    tv = sum(v(1:n, 1:n))
  end subroutine diagnose

end program callheavy

! the feed rate, ramped from 0.030 to 0.040 over the run
subroutine feedrate(step, nstep, f)
  implicit none
  integer, intent(in) :: step, nstep
  real(8), intent(out) :: f
  f = 0.030d0 + 0.010d0*dble(step - 1)/dble(nstep - 1)
end subroutine feedrate
