! read_input.f90 -- READ from standard input (read_input.in is fed as
! stdin): scalars, a whole distributed array, a section of a distributed
! 2-D array, list-directed and with a character format, then work on what
! was read. The data give n = 13 values, then a 5 x 4 (BLOCK, CYCLIC)
! array. (The SPMD lowering refuses sections and implied DOs of mapped
! arrays in READ, so only whole arrays and elements are read.)
program spmd_read_input
  implicit none
  integer, parameter :: n = 13
  real(8), dimension(n) :: x
  integer, dimension(n) :: k
  real(8), dimension(5, 4) :: g
  integer :: i, j, nread
  real(8) :: alpha, beta
!HPF$ PROCESSORS q(NUMBER_OF_PROCESSORS())
!HPF$ DISTRIBUTE (BLOCK) ONTO q :: x
!HPF$ DISTRIBUTE (CYCLIC) ONTO q :: k
!HPF$ PROCESSORS p(2, 2)
!HPF$ DISTRIBUTE (BLOCK, CYCLIC) ONTO p :: g

  read *, nread, alpha
  read *, beta
  read *, x
  read (*, *) k
  read (*, *) g
  read '(f8.3)', x(n)
  read (*, *) i, g(4, 3), j

  print '(a,i0)', 'read_input nread ', nread
  print '(a,es22.14)', 'read_input alpha beta ', alpha + 10.0d0*beta
  print '(a,es22.14)', 'read_input x ', sum(x*dble((/ (i, i = 1, n) /)))
  print '(a,i0)', 'read_input k ', sum(k*(/ (i, i = 1, n) /))
  print '(a,es22.14)', 'read_input g ', sum(g*g) + g(4, 3)
  print '(a,i0)', 'read_input i j ', 100*i + j
  x = alpha*x + beta
  where (k > 3) x = -x
  print '(a,es22.14)', 'read_input x2 ', sum(x)
end program spmd_read_input
