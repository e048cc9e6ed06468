! alloc_heat.f90 -- 1-D heat equation with run-time grid sizes held in
! ALLOCATABLE arrays, refined twice during the run.
!
! u_t = u_xx on [0,1], u = 0 at both ends, u(x,0) = sin(pi x) +
! 0.5 sin(3 pi x), whose exact solution is known.  The run has nlev levels:
! level l has nx = 16*2**(l-1) intervals; its arrays u(0:nx), unew(0:nx)
! are ALLOCATEd for it, the solution of the previous level is interpolated
! onto the finer grid (from a saved copy uc, also allocatable), and the
! explicit scheme
!     unew(i) = u(i) + r*(u(i-1) - 2u(i) + u(i+1)),  r = dt/dx**2 <= 0.4
! advances it by tlev in time; then the arrays are DEALLOCATEd.  At the end
! the finest solution is sampled onto a fixed output grid prof(nout).
! Mapping: the allocatable arrays are not mapped (replicated on every
! processor: hpfc maps only arrays with explicit bounds); the output
! profile prof(nout) is distributed (BLOCK).
! Output: per level nx, the steps taken and the largest error against the
! exact solution; then sum(prof) and the error of the profile.

program alloc_heat
  implicit none
  integer, parameter :: nlev = 3
  integer, parameter :: nout = 32
  real(8), parameter :: tlev = 0.02d0
  real(8), allocatable :: u(:), unew(:), uc(:)
  real(8), dimension(nout) :: prof, pex
  real(8) :: pi, dx, dt, r, t, err, ex
  integer :: lev, nx, nxc, nstep, step, i, k, m
!HPF$ PROCESSORS pa(NUMBER_OF_PROCESSORS())
!HPF$ DISTRIBUTE prof(BLOCK) ONTO pa
!HPF$ ALIGN pex(k) WITH prof(k)

  pi = 4.0d0*atan(1.0d0)
  t = 0.0d0
  nxc = 0
  do lev = 1, nlev
    nx = 16*2**(lev - 1)
    dx = 1.0d0/dble(nx)
    allocate (u(0:nx), unew(0:nx))
    if (lev == 1) then
      do i = 0, nx
        u(i) = sin(pi*dble(i)*dx) + 0.5d0*sin(3.0d0*pi*dble(i)*dx)
      end do
    else
      ! prolongation from the coarse copy: injection and mid-points
      do i = 0, nxc
        u(2*i) = uc(i)
      end do
      do i = 0, nxc - 1
        u(2*i + 1) = 0.5d0*(uc(i) + uc(i + 1))
      end do
      deallocate (uc)
    end if

    nstep = nint(tlev/(0.4d0*dx*dx))
    if (dble(nstep)*0.4d0*dx*dx < tlev) nstep = nstep + 1
    dt = tlev/dble(nstep)
    r = dt/(dx*dx)
    unew = u
    do step = 1, nstep
      unew(1:nx - 1) = u(1:nx - 1) + r*(u(0:nx - 2) - 2.0d0*u(1:nx - 1) + u(2:nx))
      u = unew
    end do
    t = t + tlev

    err = 0.0d0
    do i = 0, nx
      ex = exp(-pi*pi*t)*sin(pi*dble(i)*dx)                                  &
         + 0.5d0*exp(-9.0d0*pi*pi*t)*sin(3.0d0*pi*dble(i)*dx)
      err = max(err, abs(u(i) - ex))
    end do
    print '(a,i10,i10,es22.14)', 'alloc_heat level nx steps error ', nx, nstep, err

    ! keep a copy for the next level
    allocate (uc(0:nx))
    uc = u
    nxc = nx
    deallocate (u, unew)
  end do

  ! sample the finest solution at the mid-points of nout output cells
  m = nxc/nout
  forall (k = 1:nout) prof(k) = 0.5d0*(uc((k - 1)*m) + uc(k*m))
  forall (k = 1:nout) pex(k) = exp(-pi*pi*t)*sin(pi*(dble(k) - 0.5d0)/dble(nout))  &
       + 0.5d0*exp(-9.0d0*pi*pi*t)*sin(3.0d0*pi*(dble(k) - 0.5d0)/dble(nout))
  deallocate (uc)

  print '(a,es22.14)', 'alloc_heat time ', t
  print '(a,es22.14)', 'alloc_heat sum(prof) ', sum(prof)
  print '(a,es22.14)', 'alloc_heat profile error ', maxval(abs(prof - pex))
end program alloc_heat
