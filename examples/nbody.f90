! nbody.f90 -- Newtonian gravitational n-body simulation.
!
! Validation suite of hpfpredict (after Parashar & Hariri, Table 3: N-Body;
! the two phases are those of their Figure 20).
! N bodies with masses MS and positions X, Y, Z.  A travelling copy of the
! bodies (TX, TY, TZ, TM) with force accumulators (TFX, TFY, TFZ) moves
! round the virtual processor ring by CSHIFT:
!   phase 1: N/2 shifts; after shift s body k meets body k+s and the pair
!            force is added to the home body and, with the opposite sign,
!            to the travelling one (Newton's third law halves the work; for
!            even N the pairs met at s = N/2 are met twice, so count half);
!   phase 2: N/2 shifts the other way bring the travelling accumulators
!            back to their home positions, where they are added.
! Each of the NSTEPS time steps then advances velocities and positions.
! A softening length EPS keeps close encounters finite.
! Mapping: every array aligned with a 1-D template of N, (BLOCK) on all
! processors.
! Checksum: the sum over steps and bodies of the magnitude of the force.

program nbody
  implicit none
  integer, parameter :: n = 256
  integer, parameter :: nsteps = 2
  real(8), dimension(n) :: x, y, z, vx, vy, vz, ms, fx, fy, fz
  real(8), dimension(n) :: tx, ty, tz, tm, tfx, tfy, tfz
  real(8), dimension(n) :: dx, dy, dz, r2, c
  real(8) :: grav, eps2, dt, s
  integer :: k, sh, step
!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE tmp(n)
!HPF$ DISTRIBUTE tmp(BLOCK) ONTO p
!HPF$ ALIGN x(k) WITH tmp(k)
!HPF$ ALIGN y(k) WITH tmp(k)
!HPF$ ALIGN z(k) WITH tmp(k)
!HPF$ ALIGN vx(k) WITH tmp(k)
!HPF$ ALIGN vy(k) WITH tmp(k)
!HPF$ ALIGN vz(k) WITH tmp(k)
!HPF$ ALIGN ms(k) WITH tmp(k)
!HPF$ ALIGN fx(k) WITH tmp(k)
!HPF$ ALIGN fy(k) WITH tmp(k)
!HPF$ ALIGN fz(k) WITH tmp(k)
!HPF$ ALIGN tx(k) WITH tmp(k)
!HPF$ ALIGN ty(k) WITH tmp(k)
!HPF$ ALIGN tz(k) WITH tmp(k)
!HPF$ ALIGN tm(k) WITH tmp(k)
!HPF$ ALIGN tfx(k) WITH tmp(k)
!HPF$ ALIGN tfy(k) WITH tmp(k)
!HPF$ ALIGN tfz(k) WITH tmp(k)
!HPF$ ALIGN dx(k) WITH tmp(k)
!HPF$ ALIGN dy(k) WITH tmp(k)
!HPF$ ALIGN dz(k) WITH tmp(k)
!HPF$ ALIGN r2(k) WITH tmp(k)
!HPF$ ALIGN c(k) WITH tmp(k)

  grav = 1.0d0
  eps2 = 0.01d0
  dt = 0.001d0
  forall (k = 1:n) x(k) = cos(0.7d0*dble(k))*(1.0d0 + 0.3d0*sin(1.3d0*dble(k)))
  forall (k = 1:n) y(k) = sin(0.7d0*dble(k))*(1.0d0 + 0.3d0*sin(1.3d0*dble(k)))
  forall (k = 1:n) z(k) = 0.2d0*cos(2.9d0*dble(k))
  forall (k = 1:n) ms(k) = (1.0d0 + 0.5d0*sin(dble(k)))/dble(n)
  vx = -0.5d0*y
  vy = 0.5d0*x
  vz = 0.0d0
  s = 0.0d0

  do step = 1, nsteps
    fx = 0.0d0
    fy = 0.0d0
    fz = 0.0d0
    tx = x
    ty = y
    tz = z
    tm = ms
    tfx = 0.0d0
    tfy = 0.0d0
    tfz = 0.0d0

    ! phase 1: the travelling bodies go round the ring; forces computed
    do sh = 1, n/2
      tx = cshift(tx, 1)
      ty = cshift(ty, 1)
      tz = cshift(tz, 1)
      tm = cshift(tm, 1)
      tfx = cshift(tfx, 1)
      tfy = cshift(tfy, 1)
      tfz = cshift(tfz, 1)
      dx = tx - x
      dy = ty - y
      dz = tz - z
      r2 = dx*dx + dy*dy + dz*dz + eps2
      c = grav*ms*tm/(r2*sqrt(r2))
      if (2*sh == n) c = 0.5d0*c
      fx = fx + c*dx
      fy = fy + c*dy
      fz = fz + c*dz
      tfx = tfx - c*dx
      tfy = tfy - c*dy
      tfz = tfz - c*dz
    end do

    ! phase 2: the accumulated forces travel back to their home bodies
    do sh = 1, n/2
      tfx = cshift(tfx, -1)
      tfy = cshift(tfy, -1)
      tfz = cshift(tfz, -1)
    end do
    fx = fx + tfx
    fy = fy + tfy
    fz = fz + tfz

    s = s + sum(sqrt(fx*fx + fy*fy + fz*fz))

    ! advance the bodies
    vx = vx + dt*fx/ms
    vy = vy + dt*fy/ms
    vz = vz + dt*fz/ms
    x = x + dt*vx
    y = y + dt*vy
    z = z + dt*vz
  end do

  print '(a,es22.14)', 'nbody checksum ', s
end program nbody
