! char_shift_red.f90 -- CHARACTER functions and reductions of shifted
! (BLOCK,BLOCK) arrays: a CHARACTER prefix (internal and external, len=
! and the *n form), a result declared in the body, an external one given
! mapped arrays of two distributions (two clones), their values assigned
! before the output; SUM, MAXVAL and MINVAL of CSHIFT and EOSHIFT of a
! 2-D array on p(2,2)-like grids, along either dimension. n = 7.
program spmd_char_shift_red
  implicit none
  integer, parameter :: n = 7
  character(len=5), external :: ext1
  character(len=6), external :: ext2
  character*3, external :: ext3
  real(8) :: a(n), b(n), w(n, n)
  character(len=6) :: s1, s2
  integer :: i, j
!HPF$ PROCESSORS q(2, NUMBER_OF_PROCESSORS()/2)
!HPF$ DISTRIBUTE a(BLOCK)
!HPF$ DISTRIBUTE b(CYCLIC)
!HPF$ DISTRIBUTE w(BLOCK, BLOCK) ONTO q

  forall (i = 1:n) a(i) = dble(i)
  forall (i = 1:n) b(i) = 0.1d0*dble(i)
  forall (i = 1:n, j = 1:n) w(i, j) = dble(mod(3*i + 5*j, 11)) - 0.5d0*dble(j)
  s1 = ext2(a)
  s2 = ext2(b)
  print '(6a)', pick(1), ' ', pick2(2), ' ', ext1(2), ' ', ext3(1)
  print '(3a)', s1, ' ', s2

  print '(a,es22.14)', 'sum cshift 1 ', sum(cshift(w, 1))
  print '(a,es22.14)', 'sum cshift 2 ', sum(cshift(w, -2, dim=2)*w)
  print '(a,es22.14)', 'maxval eoshift ', maxval(eoshift(w, 1, dim=2))
  print '(a,es22.14)', 'minval cshift ', minval(cshift(w, 3) - w)
contains
  character(len=5) function pick(k)
    integer, intent(in) :: k
    pick = 'alpha'
    if (k > 1) pick = 'beta'
  end function pick
  function pick2(k)
    integer, intent(in) :: k
    character(len=n) :: pick2
    pick2 = 'gamma'
    if (k > 1) pick2 = 'delta'
  end function pick2
end program spmd_char_shift_red

character(len=5) function ext1(k)
  implicit none
  integer, intent(in) :: k
  ext1 = 'ext1x'
  if (k > 1) ext1 = 'ext1y'
end function ext1

function ext2(x)
  implicit none
  real(8), intent(in) :: x(7)
  character(len=6) :: ext2
  ext2 = 'small'
  if (sum(x) > 5) ext2 = 'large'
end function ext2

character*3 function ext3(k)
  implicit none
  integer k
  ext3 = 'e3a'
  if (k > 1) ext3 = 'e3b'
end function ext3
