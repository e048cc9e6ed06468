! Jacobi relaxation of a 1-D Laplace problem, parameters from modules
module kinds_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
end module kinds_mod

module consts
  use kinds_mod
  implicit none
  real(dp), parameter :: pi = 3.14159265358979323846_dp
  real(dp), parameter :: tol = 1.0e-8_dp
  integer, parameter :: n = 64
  integer, parameter :: maxit = 20000
end module consts

program relax
  use consts
  implicit none
  real(dp) :: u(n), v(n)
!hpf$ distribute u(block)
!hpf$ align v(i) with u(i)
  real(dp) :: x, resid
  integer :: i, iter

  do i = 1, n
     x = real(i - 1, dp) / real(n - 1, dp)
     u(i) = x + 0.25_dp * sin(pi * x)
  end do
  u(1) = 0.0_dp
  u(n) = 1.0_dp
  v = u

  iter = 0
  do
     iter = iter + 1
     v(2:n-1) = 0.5_dp * (u(1:n-2) + u(3:n))
     resid = maxval(abs(v(2:n-1) - u(2:n-1)))
     u(2:n-1) = v(2:n-1)
     if (resid < tol .or. iter >= maxit) exit
  end do

  write(*, '(a, i8)') ' iterations  =', iter
  write(*, '(a, l2)') ' converged   =', resid < tol
  write(*, '(a, f12.8)') ' u(2)        =', u(2)
  write(*, '(a, f12.8)') ' u(n/2)      =', u(n/2)
  write(*, '(a, f12.8)') ' u(n-1)      =', u(n-1)
  write(*, '(a, f12.6)') ' sum(u)      =', sum(u)
end program relax
