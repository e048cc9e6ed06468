! reshape2d.f90 - RESHAPE as codes use it to set up matrices: a stencil
! of coefficients from a constructor, a distributed matrix from a vector,
! a vector from a distributed matrix (rank 2 to 1), a rank-3 array from
! a rank-2 one, on (BLOCK, *) and (*, CYCLIC) mappings.
program reshape2d
  implicit none
  integer, parameter :: n = 6, m = 4
  real :: w(3, 3), a(n, m), v(n * m), b(n * m), c(2, 3, m)
  integer :: i
!hpf$ distribute a(block, *)
!hpf$ distribute v(cyclic)
!hpf$ distribute c(*, *, block)
  w = reshape((/ 0.0, 1.0, 0.0, 1.0, -4.0, 1.0, 0.0, 1.0, 0.0 /), (/ 3, 3 /))
  do i = 1, n * m
     v(i) = real(i) * 0.5
  end do
  a = reshape(v, (/ n, m /))
  b = reshape(a, (/ n * m /))
  c = reshape(a, (/ 2, 3, m /))
  print '(3f6.1)', w
  print '(6f6.1)', a(:, 2)
  print '(a, f8.2, f8.2)', 'sums ', sum(b), sum(c)
  print '(6f6.1)', c(:, :, 3)
  print '(a, f6.1)', 'corner ', a(n, m)
end program reshape2d
