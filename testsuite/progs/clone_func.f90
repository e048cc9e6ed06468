! Test: an external function with an explicit-shape dummy, no mapping
! directive, referenced in expressions with actuals mapped BLOCK,
! CYCLIC(3), and unmapped.
program clone_func
  implicit none
  integer, parameter :: n = 96
  real*8 a(n), b(n), c(n)
  real*8 wsum
  external wsum
  real*8 r1, r2, r3, tot
  integer i, k
!HPF$ PROCESSORS procs(4)
!HPF$ DISTRIBUTE a(BLOCK) ONTO procs
!HPF$ DISTRIBUTE b(CYCLIC(3)) ONTO procs

  forall (i = 1:n) a(i) = dble(mod(i, 5) + 1)
  forall (i = 1:n) b(i) = dble(mod(i, 4) - 1)
  c = 2.0d0

  r1 = wsum(a, n)
  r2 = wsum(b, n)
  r3 = wsum(c, n)
  write(*,'(A,3F14.2)') ' wsum a,b,c      :', r1, r2, r3

  ! used inside larger expressions, and on an array expression actual
  tot = 2.0d0*wsum(a, n) - wsum(b, n) + wsum(c, n)/4.0d0
  write(*,'(A,F14.2)') ' combined        :', tot
  write(*,'(A,F14.2)') ' wsum(a+b)       :', wsum(a + b, n)
  write(*,'(A,F14.2)') ' check linearity :', wsum(a, n) + wsum(b, n)

  ! update the mapped arrays in a loop and re-evaluate
  do k = 1, 3
     a = a + 1.0d0
     b = cshift(b, 1)
     write(*,'(A,I2,2F14.2)') ' step', k, wsum(a, n), wsum(b, n)
  end do

  print *, 'max of a, min of b:', maxval(a), minval(b)
end program clone_func

real*8 function wsum(v, n)
  implicit none
  integer n
  real*8 v(n)
  real*8 w(n)
  integer i

  ! weights depend on the global index: 1,2,3,1,2,3,... plus a ramp
  do i = 1, n
     w(i) = dble(mod(i - 1, 3) + 1) + dble(i / 16)
  end do
  wsum = sum(v * w)
end function wsum
