! converge.f90 -- the benchmark of make bench (bench/predict.sh) for the
! functional interpreter's whole-array statements: a relaxation whose
! convergence test is computed from the arrays in every iteration, so
! that the whole loop is interpreted (the tolerance is never met: all
! maxit iterations). Its element operations per second are measured.
program converge
  integer, parameter :: n = 1000000, maxit = 50
  real(8) :: u(n), v(n), err
  integer :: i, it
!hpf$ distribute (block) :: u, v
  forall (i = 1:n) u(i) = dble(mod(i, 17))
  forall (i = 1:n) v(i) = dble(mod(i, 5))
  err = 1.0d0
  it = 0
  do while (err > 1.0d-300 .and. it < maxit)
    it = it + 1
    u = 0.5d0*(u + v)
    err = maxval(abs(u - v))
  end do
  print *, it, err
end program converge
