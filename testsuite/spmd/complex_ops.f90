! complex_ops.f90 - COMPLEX data as a wave code holds them: a field built
! with CMPLX from two real arrays, its conjugate and modulus, AIMAG and
! REAL of elements and of whole distributed arrays, a phase rotation in
! a loop, and double precision complex with a KIND argument.
program complex_ops
  implicit none
  integer, parameter :: n = 24
  integer, parameter :: dp = kind(1.0d0)
  real :: re(n), im(n), amp(n)
  complex :: z(n), w(n), rot
  complex(dp) :: zz(n)
  real(dp) :: e
  integer :: i, step
!hpf$ distribute z(block)
!hpf$ align w(i) with z(i)
!hpf$ align re(i) with z(i)
!hpf$ align im(i) with z(i)
!hpf$ align amp(i) with z(i)
  do i = 1, n
     re(i) = cos(0.25 * i)
     im(i) = sin(0.25 * i)
  end do
  z = cmplx(re, im)
  w = conjg(z) * z
  amp = abs(z)
  rot = cmplx(0.0, 1.0)
  do step = 1, 3
     z = z * rot
  end do
  zz = cmplx(re, -im, kind=dp)
  e = sum(real(zz * conjg(zz), dp))
  print '(a, 2f10.5)', 'z(1)     ', real(z(1)), aimag(z(1))
  print '(a, 2f10.5)', 'w(n)     ', w(n)
  print '(a, f10.5)', 'sum amp  ', sum(amp)
  print '(a, f10.5)', 'sum im z ', sum(aimag(z))
  print '(a, f12.6)', 'energy   ', e
  print '(a, i3)', 'kind(zz) ', kind(zz)
end program complex_ops
