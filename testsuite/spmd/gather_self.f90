! gather_self.f90 -- array assignments that gather from the array they
! assign: strided sections of x read while another part of x is written.
! Where the part written and the parts read are apart (in every sweep of
! the halving loop; constant sections of a CYCLIC(3) vector), one process
! reads them in place; where they meet (s small, a reversed section over
! itself, overlapping constant sections), FORALL semantics need the values
! from before the statement, which the gathers give. The checks print the
! arrays' weighted sums. n = 37.
program spmd_gather_self
  implicit none
  integer, parameter :: n = 37
  real(8), dimension(3*n) :: x, w
  real(8), dimension(n, 5) :: a
  integer :: i, j, m, lo, hi, s
!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())
!HPF$ DISTRIBUTE (BLOCK) ONTO p :: x
!HPF$ DISTRIBUTE (CYCLIC(3)) ONTO p :: w
!HPF$ DISTRIBUTE (*, BLOCK) ONTO p :: a

  forall (i = 1:3*n) x(i) = dble(mod(7*i, 11)) + 0.25d0*dble(i)
  forall (i = 1:3*n) w(i) = dble(mod(5*i, 13)) - 0.5d0*dble(i)
  forall (i = 1:n, j = 1:5) a(i, j) = dble(i) + 10.0d0*dble(j)

  ! apart: every sweep writes past what it reads
  lo = 0
  hi = n
  do while (hi - lo > 1)
    m = (hi - lo)/2
    x(hi + 1:hi + m) = x(lo + 1:lo + 2*m:2) + 0.5d0*x(lo + 2:lo + 2*m:2)
    lo = hi
    hi = hi + m
  end do
  print '(a,es22.14)', 'gather_self apart ', sum(x*dble((/ (i, i = 1, 3*n) /)))

  ! apart or not, by the value of s: written x(s+1:s+10), read x(1:20:2)
  do s = 0, 24, 3
    x(s + 1:s + 10) = x(1:20:2) - 0.125d0*x(2:20:2)
    print '(a,i3,es22.14)', 'gather_self shift ', s, sum(x*dble((/ (i, i = 1, 3*n) /)))
  end do

  ! a reversed, strided section over itself (they meet)
  w(1:2*n:2) = w(2*n:1:-2) + 1.0d0
  print '(a,es22.14)', 'gather_self reversed ', sum(w*dble((/ (i, i = 1, 3*n) /)))
  ! parts of a CYCLIC(3) vector: apart whatever the scalars, then meeting
  w(2*n + 1:3*n) = 2.0d0*w(1:2*n:2)
  w(n + 1:2*n) = 0.5d0*w(1:2*n:2)
  print '(a,es22.14)', 'gather_self cyclic ', sum(w*dble((/ (i, i = 1, 3*n) /)))

  ! a plane from other planes, strided: apart along the second dimension
  do j = 2, 5
    a(:, j) = a(n:1:-1, j - 1) - 0.5d0*a(:, 1)
  end do
  ! the same plane, rows strided: apart only when the ranges allow
  a(1:n/2, 3) = a(2:n:2, 3) + a(1:n - 1:2, 4)
  print '(a,es22.14)', 'gather_self plane ', sum(a*dble(reshape((/ (i, i = 1, 5*n) /), (/ n, 5 /))))
end program spmd_gather_self
