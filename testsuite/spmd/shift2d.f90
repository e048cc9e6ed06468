! shift2d.f90 -- EOSHIFT (with and without BOUNDARY) and CSHIFT with
! negative shifts and DIM=2 on a (BLOCK, BLOCK) 2-D array over p(2,2).
! EOSHIFT of INTEGER(8), COMPLEX(8) and LOGICAL vectors with and without
! BOUNDARY. Extents 13 x 11 give uneven blocks.
program spmd_shift2d
  implicit none
  integer, parameter :: n = 13, m = 11
  real(8), dimension(n, m) :: a, b, c, d, e
  real(8), dimension(n) :: v, w
  integer(8), dimension(n) :: k8
  complex(8), dimension(n) :: zc
  logical, dimension(n) :: lg
  integer :: i, j
!HPF$ PROCESSORS p(2, 2)
!HPF$ TEMPLATE t(n, m)
!HPF$ DISTRIBUTE t(BLOCK, BLOCK) ONTO p
!HPF$ ALIGN a(i, j) WITH t(i, j)
!HPF$ ALIGN b(i, j) WITH t(i, j)
!HPF$ ALIGN c(i, j) WITH t(i, j)
!HPF$ ALIGN d(i, j) WITH t(i, j)
!HPF$ ALIGN e(i, j) WITH t(i, j)
!HPF$ ALIGN v(i) WITH t(i, 1)
!HPF$ ALIGN w(i) WITH t(i, 1)
!HPF$ ALIGN k8(i) WITH t(i, *)
!HPF$ ALIGN zc(i) WITH t(i, 2)
!HPF$ ALIGN lg(i) WITH t(i, 3)

  forall (i = 1:n, j = 1:m) a(i, j) = dble(i) + 0.01d0*dble(j*j)

  b = cshift(a, -3, 2)
  c = cshift(a, shift = 5, dim = 1) + cshift(a, -1)
  d = eoshift(a, -2, dim = 2)
  e = eoshift(a, 3, boundary = -1.5d0, dim = 1)
  print '(a,es22.14)', 'shift2d b ', sum(b*a)
  print '(a,es22.14)', 'shift2d c ', sum(c*a)
  print '(a,es22.14)', 'shift2d d ', sum(d*a)
  print '(a,es22.14)', 'shift2d e ', sum(e*a)

  e = eoshift(a, -4, 7.0d0, 2) + eoshift(a, 1, 2.0d0)
  print '(a,es22.14)', 'shift2d e2 ', sum(e*dble(1))
  ! shift of a section and a large negative shift (wraps more than a block)
  b(2:n - 1, :) = cshift(a(2:n - 1, :), -9, 2)
  print '(a,es22.14)', 'shift2d b2 ', sum(b*a)

  forall (i = 1:n) v(i) = dble(i*i)
  w = eoshift(v, -1) + eoshift(v, 2, boundary = 100.0d0) + cshift(v, -7)
  print '(a,es22.14)', 'shift2d w ', sum(w*v)
  print '(a,es22.14)', 'shift2d e(13,11) ', e(n, m)

  ! other types, with the default BOUNDARY (zero of the array's type and kind)
  forall (i = 1:n) k8(i) = int(i, 8)*10000000000_8
  forall (i = 1:n) zc(i) = dble(i)*(1.0d0, -2.0d0)
  lg = k8 > 50000000000_8
  k8 = eoshift(k8, 2) + cshift(k8, -3) + eoshift(k8, -1, 7_8)
  zc = eoshift(zc, -2) + eoshift(zc, 1, (0.5d0, 0.5d0))
  lg = eoshift(lg, 3) .neqv. eoshift(lg, -1, .true.)
  print '(a,i0)', 'shift2d k8 ', sum(k8/10000000_8*(/ (int(i, 8), i = 1, n) /))
  print '(a,2es22.14)', 'shift2d zc ', sum(zc*zc)
  print '(a,13l2)', 'shift2d lg ', lg
end program spmd_shift2d
