! clamp_where.f90 -- explicit reaction-diffusion in 1-D with a limiter:
! after each update the field is clamped to a ceiling with WHERE.
!
!   unew(i) = u(i) + c*(u(i-1) - 2u(i) + u(i+1)) + dt*s(i)*(1 + u(i))
!   where (unew > umax) unew = umax
!   where (unew < 0)    unew = 0
! on i = 2..n-1, the ends held at zero, for nstep steps.  The source s is
! positive on a few bands and negative between them, so the set of clamped
! cells grows and moves from step to step (a data-dependent mask).  Every
! step counts the clamped cells; every 10 steps the running total of the
! field is recorded.
! Mapping: u, unew, s aligned with a template of n, (BLOCK) over all
! processors.
! Output: the number of clamp events, the cells clamped at the end,
! sum(u), the maximum and the position of the first clamped cell.

program clamp_where
  implicit none
  integer, parameter :: n = 3000
  integer, parameter :: nstep = 50
  real(8), parameter :: umax = 1.0d0
  real(8), dimension(n) :: u, unew, s
  real(8) :: c, dt, hist
  integer :: i, step, nclamp, nlast, ifirst
!HPF$ PROCESSORS pw(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE line(n)
!HPF$ DISTRIBUTE line(BLOCK) ONTO pw
!HPF$ ALIGN u(i) WITH line(i)
!HPF$ ALIGN unew(i) WITH line(i)
!HPF$ ALIGN s(i) WITH line(i)

  c = 0.2d0
  dt = 0.05d0
  forall (i = 1:n) s(i) = sin(dble(i)*0.01d0) + 0.3d0*cos(dble(i)*0.037d0)
  forall (i = 1:n) u(i) = 0.5d0 + 0.45d0*sin(dble(i)*0.005d0)
  u(1) = 0.0d0
  u(n) = 0.0d0
  unew = u

  nclamp = 0
  hist = 0.0d0
  do step = 1, nstep
    unew(2:n - 1) = u(2:n - 1) + c*(u(1:n - 2) - 2.0d0*u(2:n - 1) + u(3:n))  &
                  + dt*s(2:n - 1)*(1.0d0 + u(2:n - 1))
    where (unew > umax) unew = umax
    where (unew < 0.0d0) unew = 0.0d0
    nclamp = nclamp + count(unew >= umax)
    u = unew
    if (mod(step, 10) == 0) hist = hist + sum(u)
  end do

  nlast = count(u >= umax)
  ifirst = 0
  do i = 1, n
    if (u(i) >= umax) then
      ifirst = i
      exit
    end if
  end do

  print '(a,i10)', 'clamp_where clamp events ', nclamp
  print '(a,i10)', 'clamp_where clamped at end ', nlast
  print '(a,i10)', 'clamp_where first clamped cell ', ifirst
  print '(a,es22.14)', 'clamp_where sum(u) ', sum(u)
  print '(a,es22.14)', 'clamp_where history ', hist
  print '(a,es22.14)', 'clamp_where max(u) ', maxval(u)
end program clamp_where
