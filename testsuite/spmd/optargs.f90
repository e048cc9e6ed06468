! optargs.f90 - keyword and OPTIONAL arguments as library-style codes use
! them: a module solver with an optional tolerance and iteration limit
! tested with PRESENT, called with keywords in any order and with
! arguments left out; an internal function with an optional scale; an
! external subroutine called by position.
module solver
  implicit none
contains
  subroutine relax(u, n, tol, maxit, iters)
    integer, intent(in) :: n
    real, intent(inout) :: u(n)
    real, intent(in), optional :: tol
    integer, intent(in), optional :: maxit
    integer, intent(out) :: iters
    real :: t, change, old
    integer :: lim, i
    t = 1.0e-3
    if (present(tol)) t = tol
    lim = 100
    if (present(maxit)) lim = maxit
    iters = 0
    do
       iters = iters + 1
       change = 0.0
       do i = 2, n - 1
          old = u(i)
          u(i) = 0.5 * (u(i-1) + u(i+1))
          change = max(change, abs(u(i) - old))
       end do
       if (change < t .or. iters >= lim) exit
    end do
  end subroutine relax
end module solver

program optargs
  use solver
  implicit none
  integer, parameter :: n = 12
  real :: u(n), v(n)
  integer :: it1, it2, it3
!hpf$ distribute v(block)
  u = 0.0
  u(n) = 1.0
  call relax(u, n, iters=it1)
  print '(a, i4, f9.5)', 'defaults  ', it1, u(n/2)
  u = 0.0
  u(n) = 1.0
  call relax(u, n, maxit=5, iters=it2)
  print '(a, i4, f9.5)', 'maxit=5   ', it2, u(n/2)
  u = 0.0
  u(n) = 1.0
  call relax(iters=it3, tol=1.0e-5, n=n, u=u, maxit=1000)
  print '(a, i4, f9.5)', 'tol=1e-5  ', it3, u(n/2)
  v = u
  print '(a, f9.5, f9.5)', 'scaled    ', scaled(sum(v)), scaled(sum(v), factor=2.0)
  call report(7, sum(v))
contains
  real function scaled(x, factor)
    real, intent(in) :: x
    real, intent(in), optional :: factor
    scaled = x
    if (present(factor)) scaled = x * factor
  end function scaled
end program optargs

subroutine report(label, total)
  implicit none
  integer, intent(in) :: label
  real, intent(in) :: total
  print '(a, i3, f10.5)', 'report    ', label, total
end subroutine report
