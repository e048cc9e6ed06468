! where_multi.f90 -- WHERE constructs whose body assigns an array that the
! mask reads (the mask must be evaluated once, before any assignment), and
! a construct with several ELSEWHERE (mask) branches and a final ELSEWHERE,
! an ELSEWHERE (mask) reading an array the WHERE block assigned,
! on a (CYCLIC, BLOCK) 2-D array and a BLOCK vector. Extents 15 x 7, 29.
program spmd_where_multi
  implicit none
  integer, parameter :: n = 15, m = 7, l = 29
  real(8), dimension(n, m) :: a, b
  real(8), dimension(l) :: x, y
  integer, dimension(l) :: k
  integer :: i, j
!HPF$ PROCESSORS p(2, 2)
!HPF$ TEMPLATE t(n, m)
!HPF$ DISTRIBUTE t(CYCLIC, BLOCK) ONTO p
!HPF$ ALIGN a(i, j) WITH t(i, j)
!HPF$ ALIGN b(i, j) WITH t(i, j)
!HPF$ PROCESSORS q(NUMBER_OF_PROCESSORS())
!HPF$ DISTRIBUTE (BLOCK) ONTO q :: x, y
!HPF$ ALIGN k(i) WITH x(i)

  forall (i = 1:n, j = 1:m) a(i, j) = dble(mod(i*j + 3*i, 11)) - 4.0d0
  b = 0.0d0

  ! the first body statement changes A, which the mask reads: elements that
  ! become negative must still take the second statement
  where (a > 0.0d0)
    a = a - 3.0d0
    b = a*2.0d0
  elsewhere
    a = -a
    b = 1.0d0
  end where
  print '(a,es22.14)', 'where_multi a ', sum(a)
  print '(a,es22.14)', 'where_multi b ', sum(b*b)

  ! several ELSEWHERE (mask) branches
  where (a < -1.5d0)
    b = 10.0d0
  elsewhere (a < 0.5d0)
    b = 20.0d0 + a
  elsewhere (a < 2.5d0)
    b = 30.0d0
    a = a + 100.0d0
  elsewhere
    b = -a
  end where
  print '(a,es22.14)', 'where_multi a2 ', sum(a)
  print '(a,es22.14)', 'where_multi b2 ', sum(b)

  ! the mask is a shifted copy of the assigned array
  forall (i = 1:l) x(i) = dble(mod(5*i, 13)) - 6.0d0
  y = 0.0d0
  where (x(2:l) > x(1:l - 1))
    x(1:l - 1) = x(2:l)
    y(2:l) = x(1:l - 1) + 0.5d0
  elsewhere (x(2:l) < x(1:l - 1) - 2.0d0)
    y(1:l - 1) = -1.0d0
  end where
  print '(a,es22.14)', 'where_multi x ', sum(x*dble((/ (i, i = 1, l) /)))
  print '(a,es22.14)', 'where_multi y ', sum(y*dble((/ (i, i = 1, l) /)))

  ! the WHERE block changes y, which the ELSEWHERE (mask) reads: Fortran 95
  ! evaluates that mask when the ELSEWHERE is reached, after the block
  forall (i = 1:l) y(i) = dble(mod(7*i, 11)) - 5.0d0
  x = 0.0d0
  where (y > 1.0d0)
    y = -y
  elsewhere (cshift(y, 1) < 0.0d0)
    x = 1.0d0
  elsewhere
    x = 2.0d0
  end where
  print '(a,es22.14)', 'where_multi x2 ', sum(x*dble((/ (i, i = 1, l) /)))

  ! integer arrays, mask on one, assignments to it
  forall (i = 1:l) k(i) = mod(i*i, 9)
  where (k > 4) k = k - 5
  where (mod(k, 2) == 0)
    k = k/2
  elsewhere (k == 3)
    k = 100
  elsewhere
    k = -k
  end where
  print '(a,i0)', 'where_multi k ', sum(k*(/ (i, i = 1, l) /))
end program spmd_where_multi
