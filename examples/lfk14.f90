! lfk14.f90 -- Livermore Fortran Kernel 14: 1-D particle in cell.
!
! Validation suite of hpfpredict (after Parashar & Hariri, Table 3: LFK 14).
! N particles move on a periodic grid of NG cells.  Each step:
!   1. the cell index IX of every particle (INT of its position);
!   2. a gather of the field EX and its slope DEX at those cells through
!      the integer index vector IX (FORALL with a vector subscript);
!   3. the push: velocity from the interpolated field, then the new
!      position, folded back onto the periodic grid with MOD;
!   4. the charge deposit: every particle gives 1-RX to its cell IR and RX
!      to cell IR+1.  Several particles share a cell, so the deposit is
!      written as one masked SUM per grid cell.
! Mapping: the particle arrays are aligned with a template of N and the
! grid arrays with a template of NG+1, both (BLOCK) on all processors.
! Checksum: over the steps, the sum of the positions and velocities plus
! the first moment sum(g*RH(g)) of the deposited charge (all positive).

program lfk14
  implicit none
  integer, parameter :: n = 1024
  integer, parameter :: ng = 64
  integer, parameter :: nsteps = 3
  real(8), dimension(n) :: vx, xx, xi, ex1, dex1, rx
  integer, dimension(n) :: ix, ir
  real(8), dimension(ng + 1) :: ex, dex, rh, wg
  real(8) :: flx, twopi, s
  integer :: k, g, step
!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE tp(n)
!HPF$ TEMPLATE tg(ng + 1)
!HPF$ DISTRIBUTE tp(BLOCK) ONTO p
!HPF$ DISTRIBUTE tg(BLOCK) ONTO p
!HPF$ ALIGN vx(k) WITH tp(k)
!HPF$ ALIGN xx(k) WITH tp(k)
!HPF$ ALIGN xi(k) WITH tp(k)
!HPF$ ALIGN ex1(k) WITH tp(k)
!HPF$ ALIGN dex1(k) WITH tp(k)
!HPF$ ALIGN rx(k) WITH tp(k)
!HPF$ ALIGN ix(k) WITH tp(k)
!HPF$ ALIGN ir(k) WITH tp(k)
!HPF$ ALIGN ex(g) WITH tg(g)
!HPF$ ALIGN dex(g) WITH tg(g)
!HPF$ ALIGN rh(g) WITH tg(g)
!HPF$ ALIGN wg(g) WITH tg(g)

  twopi = 8.0d0*atan(1.0d0)
  flx = 0.001d0
  forall (g = 1:ng + 1) ex(g) = 0.02d0 + 0.01d0*sin(twopi*dble(g)/dble(ng))
  forall (g = 1:ng + 1) dex(g) = 0.01d0*(sin(twopi*dble(g + 1)/dble(ng))    &
                                       - sin(twopi*dble(g)/dble(ng)))
  forall (g = 1:ng + 1) wg(g) = dble(g)
  forall (k = 1:n) xx(k) = 1.0d0 + dble(mod(37*k, ng)) + 0.495d0*(1.0d0 + sin(dble(k)))
  vx = 0.0d0
  s = 0.0d0

  do step = 1, nsteps
    ! cell of every particle, and the gather of the field through IX
    ix = int(xx)
    xi = dble(ix)
    forall (k = 1:n) ex1(k) = ex(ix(k))
    forall (k = 1:n) dex1(k) = dex(ix(k))
    ! push, then fold the positions back onto the periodic grid
    vx = vx + ex1 + (xx - xi)*dex1
    xx = xx + vx + flx
    ir = int(xx)
    rx = xx - dble(ir)
    ir = mod(ir - 1, ng) + 1
    xx = rx + dble(ir)
    ! charge deposit
    do g = 1, ng + 1
      rh(g) = sum(1.0d0 - rx, mask = ir == g) + sum(rx, mask = ir + 1 == g)
    end do
    s = s + sum(xx) + sum(vx) + dot_product(wg, rh)
  end do

  print '(a,es22.14)', 'lfk14 checksum ', s
end program lfk14
