! default_procs.f90 -- processor arrangements a program need not declare:
! DISTRIBUTE of two dimensions without ONTO (the default arrangement of
! rank 2, its shape the most balanced for the process count), a scalar
! PROCESSORS (HPF 1.0: one processor) with a collapsed array ONTO it, and
! an arrangement whose extent is an expression of NUMBER_OF_PROCESSORS().
! Extents 13 x 11.
program spmd_default_procs
  implicit none
  integer, parameter :: n = 13, m = 11
  real(8) :: c(n, m), d(n, m), v(n), w(n, m)
  integer :: i, j
!HPF$ PROCESSORS one
!HPF$ DISTRIBUTE (BLOCK, BLOCK) :: c
!HPF$ DISTRIBUTE d(CYCLIC, BLOCK)
!HPF$ DISTRIBUTE v(*) ONTO one
!HPF$ PROCESSORS half(NUMBER_OF_PROCESSORS()/2, 2)
!HPF$ DISTRIBUTE w(BLOCK, CYCLIC) ONTO half
  forall (i = 1:n, j = 1:m) c(i, j) = dble(i*j)
  d = c + cshift(c, 1, dim=1) + eoshift(c, -2, dim=2)
  forall (i = 1:n) v(i) = sum(d(i, :))
  w = 0.5d0*d + cshift(c, -1, dim=2)
  print '(a,es22.14)', 'default_procs c ', sum(c)
  print '(a,es22.14)', 'default_procs d ', sum(d*d)
  print '(a,es22.14)', 'default_procs v ', sum(v)
  print '(a,es22.14)', 'default_procs w ', sum(w*w)
end program spmd_default_procs
