! cshift_step.f90 -- the benchmark of make bench (bench/predict.sh) for a
! CSHIFT by the loop's variable: each step's partners differ, counted in
! closed form from the mapping. Its prediction time must not depend on n.
program cshift_step
  integer, parameter :: n = 1000
  real :: x(n), y(n)
  integer :: s
!hpf$ distribute (block) :: x, y
  x = 1.0
  y = 0.0
  do s = 1, 50
    y = y + cshift(x, s)
  end do
  print *, sum(y)
end program cshift_step
