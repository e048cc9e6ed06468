! Test: one subroutine with an explicit-shape dummy and no mapping of
! its own, called with actuals mapped BLOCK, CYCLIC, and unmapped.
! The compiler must clone or remap the dummy for each call site.
program clone_sub
  implicit none
  integer, parameter :: n = 200
  integer, parameter :: niter = 4
  real*8 x(n), y(n), z(n)
  integer i, it
!HPF$ PROCESSORS p(4)
!HPF$ DISTRIBUTE x(BLOCK) ONTO p
!HPF$ DISTRIBUTE y(CYCLIC) ONTO p

  ! initial data: small integers, so all sums stay exact
!HPF$ INDEPENDENT
  do i = 1, n
     x(i) = dble(mod(i, 7))
     y(i) = dble(mod(i, 7))
     z(i) = dble(mod(3*i, 11))
  end do

  print *, 'initial sums', sum(x), sum(y), sum(z)

  do it = 1, niter
     call smooth(x, n)
     call smooth(y, n)
     call smooth(z, n)
     write(*,'(A,I3,3F16.6)') ' iter', it, sum(x), sum(y), sum(z)
  end do

  ! x and y started equal, so they must still agree elementwise
  print *, 'max |x-y| =', maxval(abs(x - y))
  print *, 'x(1), x(n/2), x(n) =', x(1), x(n/2), x(n)
  print *, 'z(2), z(n-1)       =', z(2), z(n-1)
end program clone_sub

subroutine smooth(a, n)
  implicit none
  integer n
  real*8 a(n)
!HPF$ INHERIT a
  real*8 b(n)
  integer i

  ! 3-point weighted stencil into a local copy, end points fixed;
  ! weights 1/4, 1/2, 1/4 keep the values dyadic (exact in binary)
  b(1) = a(1)
  b(n) = a(n)
  b(2:n-1) = 0.25d0*a(1:n-2) + 0.5d0*a(2:n-1) + 0.25d0*a(3:n)
  a(2:n-1) = b(2:n-1)

  ! a second, loop-form pass over the interior (Gauss-Seidel would be
  ! order-dependent, so keep it Jacobi with the copy in b)
  do i = 2, n-1
     b(i) = a(i)
  end do
!HPF$ INDEPENDENT
  do i = 2, n-1
     a(i) = 0.5d0*(b(i-1) + b(i+1))
  end do
end subroutine smooth
