! print_dist.f90 -- output of distributed data: PRINT of a whole
! distributed array, of sections (strided, reversed, of a 2-D array), of
! single elements and expressions of them, with a character format, and
! WRITE (*, *) / WRITE (*, fmt) of a mix of scalars, elements and sections.
! SHAPE and SIZE in an output list. n = 11 on a CYCLIC(3) vector and a (BLOCK, BLOCK) 7 x 5 array on p(2,2).
program spmd_print_dist
  implicit none
  integer, parameter :: n = 11
  real(8), dimension(n) :: x
  integer, dimension(n) :: k
  real(8), dimension(7, 5) :: g
  logical, dimension(n) :: lg
  integer :: i, j
  character(len=12) :: fmt
!HPF$ PROCESSORS q(NUMBER_OF_PROCESSORS())
!HPF$ DISTRIBUTE (CYCLIC(3)) ONTO q :: x, lg
!HPF$ DISTRIBUTE (BLOCK) ONTO q :: k
!HPF$ PROCESSORS p(2, 2)
!HPF$ DISTRIBUTE (BLOCK, BLOCK) ONTO p :: g

  forall (i = 1:n) x(i) = dble(i) * 0.125d0
  forall (i = 1:n) k(i) = i*i - 10
  forall (i = 1:7, j = 1:5) g(i, j) = dble(10*i + j)
  lg = k > 20

  print '(a,es22.14)', 'print_dist checksum ', sum(x) + sum(g)
  print '(11f8.3)', x
  print '(a,11i5)', 'k ', k
  print '(4f8.3)', x(2:n:3)
  print '(11f8.3)', x(n:1:-1)
  print '(7f6.1)', g(:, 4)
  print '(5f6.1)', g(3, :)
  print '(6f6.1)', g(2:7:2, 1:5:3)
  print '(a,f8.3,a,i0)', 'x(7) = ', x(7), ' k(n) = ', k(n)
  print '(a,f8.3)', 'g(7,5)+x(1) = ', g(7, 5) + x(1)
  print '(11l2)', lg
  write (*, *) 'mix', k(3), k(2:4)
  write (*, '(a,i4,3f7.2,l2)') 'w ', k(9), g(5, 2:4), lg(n)
  fmt = '(3es12.4)'
  write (*, fmt) x(1), g(1, 1), dble(k(5))
  write (*, *) k
  ! inquiry functions of mapped arrays in output lists
  print '(a,2i4,i4,i4)', 'shape ', shape(g), size(g), size(x(2:n:2))
end program spmd_print_dist
