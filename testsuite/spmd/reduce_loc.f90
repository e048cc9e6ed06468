! reduce_loc.f90 -- MAXLOC/MINLOC with DIM= in array assignments, full
! reductions with MASK= (MAXVAL MINVAL PRODUCT COUNT ANY ALL SUM),
! reductions with DIM= and MASK=, and DOT_PRODUCT of aligned and of
! differently distributed vectors, and of LOGICAL vectors. Extents
! 17 x 10, n = 23.
program spmd_reduce_loc
  implicit none
  integer, parameter :: n = 17, m = 10, l = 23
  real(8), dimension(n, m) :: a
  integer, dimension(n) :: imax
  integer, dimension(m) :: imin
  real(8), dimension(m) :: cmax
  real(8), dimension(l) :: u, v, w
  integer :: i, j, cnt
  real(8) :: s
  logical :: la, lb
!HPF$ PROCESSORS p(2, 2)
!HPF$ TEMPLATE t(n, m)
!HPF$ DISTRIBUTE t(BLOCK, CYCLIC) ONTO p
!HPF$ ALIGN a(i, j) WITH t(i, j)
!HPF$ ALIGN imax(i) WITH t(i, *)
!HPF$ ALIGN imin(j) WITH t(*, j)
!HPF$ ALIGN cmax(j) WITH t(1, j)
!HPF$ PROCESSORS q(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE tv(l)
!HPF$ DISTRIBUTE tv(BLOCK) ONTO q
!HPF$ ALIGN u(i) WITH tv(i)
!HPF$ ALIGN v(i) WITH tv(i)
!HPF$ DISTRIBUTE w(CYCLIC(3)) ONTO q

  forall (i = 1:n, j = 1:m) a(i, j) = dble(mod(7*i + 3*j*j, 19)) + 0.001d0*dble(i + j)

  imax = maxloc(a, dim = 2)
  imin = minloc(a, dim = 1)
  cmax = maxval(a, dim = 1, mask = a < 10.0d0)
  print '(a,i0)', 'reduce_loc imax ', sum(imax*(/ (i, i = 1, n) /))
  print '(a,i0)', 'reduce_loc imin ', sum(imin*(/ (j, j = 1, m) /))
  print '(a,es22.14)', 'reduce_loc cmax ', sum(cmax)
  imax = minloc(0.1d0*a, dim = 2) + 100*maxloc(0.01d0*a, dim = 2)
  print '(a,i0)', 'reduce_loc imax2 ', sum(imax*(/ (i, i = 1, n) /))
  imin = maxloc(a, dim = 1, mask = a < 12.0d0) + minloc(a(2:n, :), 1)
  print '(a,i0)', 'reduce_loc imin2 ', sum(imin*imin)

  print '(a,es22.14)', 'reduce_loc maxval ', maxval(a, mask = a < 15.0d0)
  print '(a,es22.14)', 'reduce_loc minval ', minval(a, mask = a > 3.0d0)
  print '(a,es22.14)', 'reduce_loc product ', product(a/10.0d0, mask = a > 9.0d0 .and. a < 11.0d0)
  cnt = count(a > 5.0d0 .and. a < 9.0d0)
  print '(a,i0)', 'reduce_loc count ', cnt
  la = any(a > 18.0d0)
  lb = all(a >= 0.0d0)
  print '(a,l1,l1)', 'reduce_loc any all ', la, lb
  la = any(a(1:n:2, :) > 17.5d0)
  lb = all(a(2:n, 2:m) > 0.5d0)
  print '(a,l1,l1)', 'reduce_loc any all 2 ', la, lb
  print '(a,es22.14)', 'reduce_loc sum ', sum(a, mask = mod(int(a), 2) == 0)
  print '(a,i0)', 'reduce_loc count dim ', sum(count(a > 9.0d0, dim = 2))
  print '(a,es22.14)', 'reduce_loc sum dim ', sum(sum(a, dim = 1, mask = a > 2.0d0)*cmax)

  forall (i = 1:l) u(i) = 1.0d0/dble(i)
  forall (i = 1:l) v(i) = dble(i) + 0.5d0
  forall (i = 1:l) w(i) = dble(l - i)
  s = dot_product(u, v)
  print '(a,es22.14)', 'reduce_loc dot aligned ', s
  s = dot_product(v, w)
  print '(a,es22.14)', 'reduce_loc dot mixed ', s
  s = dot_product(u(1:l - 2), w(3:l))
  print '(a,es22.14)', 'reduce_loc dot sections ', s
  ! DOT_PRODUCT of LOGICAL vectors is ANY(a .AND. b)
  la = dot_product(u > 0.1d0, w > 20.0d0)
  lb = dot_product(v(1:5) > 4.0d0, w(1:5) > 20.0d0)
  print '(a,l1,l1)', 'reduce_loc dot logical ', la, lb
end program spmd_reduce_loc
