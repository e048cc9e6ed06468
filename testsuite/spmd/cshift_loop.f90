! cshift_loop.f90 -- CSHIFT by amounts that change from step to step (the
! loop's variable, its negation, a multiple, beyond the extent, negative),
! of BLOCK, CYCLIC and CYCLIC(3) vectors, of a section, and along the
! distributed dimension of a (*, BLOCK) matrix; extents 37 and 5 x 37.
program spmd_cshift_loop
  implicit none
  integer, parameter :: n = 37, m = 5
  real(8) :: x(n), y(n), c(n), z(n), a(m, n), b(m, n)
  integer :: i, j, s
!HPF$ DISTRIBUTE (BLOCK) :: x, y
!HPF$ DISTRIBUTE (CYCLIC) :: c
!HPF$ DISTRIBUTE (CYCLIC(3)) :: z
!HPF$ DISTRIBUTE (*, BLOCK) :: a, b
  forall (i = 1:n) x(i) = dble(mod(7*i, 11))
  c = x
  z = x
  forall (i = 1:m, j = 1:n) a(i, j) = dble(i + 2*j)
  b = 0.0d0
  y = 0.0d0
  do s = -3, 45, 4
    y = y + cshift(x, s)
    y = y + 0.5d0*cshift(c, -s)
    y(2:n - 1) = y(2:n - 1) + cshift(x(1:n - 2), s + 1)
    y = y + cshift(z, 2*s)
    b = b + cshift(a, s, dim=2)
    c = 0.5d0*c + 0.25d0*cshift(y, s)
  end do
  print '(a,es22.14)', 'cshift_loop y ', sum(y)
  print '(a,es22.14)', 'cshift_loop b ', sum(b*b)
  print '(a,es22.14)', 'cshift_loop c ', sum(c)
end program spmd_cshift_loop
