! io_loc_where.f90 -- mapped arrays where a Fortran array may go: implied
! DOs in output (forwards, backwards, nested, mixed with scalars, arrays of
! lower bound 0), MAXLOC and MINLOC of a rank-1 array without DIM= (a
! one-element result, with MASK=), and WHERE inside FORALL (a mask reading
! the element it assigns; a WHERE construct of two assignments under a
! FORALL mask). Extents 9 and 9 x 5.
program spmd_io_loc_where
  implicit none
  integer, parameter :: n = 9, m = 5
  real(8) :: a(n), b(0:n - 1, m), g(n, m), h(n, m)
  integer :: i, j, loc(1), lm(1)
  logical :: msk(n)
!HPF$ DISTRIBUTE (BLOCK) :: a
!HPF$ DISTRIBUTE (CYCLIC, *) :: b
!HPF$ DISTRIBUTE (BLOCK, *) :: g, h
  forall (i = 1:n) a(i) = dble(mod(7*i, 5)) - 0.1d0*dble(i)
  forall (i = 0:n - 1, j = 1:m) b(i, j) = dble(i*j)
  forall (i = 1:n, j = 1:m) g(i, j) = dble(mod(i*j, 7))
  h = 1.0d0
  print '(9f6.1)', (a(i), i = 1, n)
  print '(9f6.1)', (a(i) + 1.0d0, i = n, 1, -2)
  print '(5f6.1)', ((b(i, j), j = 1, m), i = 0, n - 1, 3)
  print '(3(i3, f6.1))', (i, a(i), i = 2, 4)
  msk = a < 2.0d0
  loc = maxloc(a)
  lm = minloc(a, mask=msk)
  print '(a,3i4)', 'io_loc_where loc ', loc, lm, maxloc(a) + 1
  forall (i = 1:n)
    where (g(i, :) > 3.0d0) g(i, :) = 0.0d0
  end forall
  forall (i = 2:n, mod(i, 2) == 0)
    where (g(i, :) < 2.0d0)
      h(i, :) = g(i - 1, :) + 10.0d0
      h(i - 1, :) = -1.0d0
    end where
  end forall
  print '(a,2es22.14)', 'io_loc_where g h ', sum(g), sum(h*h)
end program spmd_io_loc_where
