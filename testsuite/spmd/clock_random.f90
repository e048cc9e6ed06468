! clock_random.f90 - a Monte Carlo integration in the style of a benchmark
! code: SYSTEM_CLOCK and CPU_TIME around the work, DATE_AND_TIME for the
! log, the generator seeded with RANDOM_SEED, RANDOM_NUMBER into
! distributed arrays, a scalar and a section. Only what does not depend
! on the clock is printed.
program clock_random
  implicit none
  integer, parameter :: dp = selected_real_kind(12, 100)
  integer, parameter :: n = 2000
  real(dp) :: x(n), f(n), pi_est
  real :: t0, t1, r
  integer :: c0, c1, rate, cmax, k, i, vals(8), seed(64)
  character(len=8) :: day
  character(len=10) :: clock
!hpf$ distribute x(block)
!hpf$ align f(i) with x(i)
  call system_clock(c0, rate, cmax)
  call cpu_time(t0)
  call random_seed(size=k)
  seed = (/ (104729 * i + 17, i = 1, 64) /)
  call random_seed(put=seed)
  call random_number(x)
  f = 4.0_dp / (1.0_dp + x * x)
  pi_est = sum(f) / n
  call random_number(r)
  call random_number(harvest=x(1:10))
  call random_seed(get=seed)
  call date_and_time(day, clock, values=vals)
  call cpu_time(t1)
  call system_clock(count=c1)
  print '(a, f8.5)', 'pi about ', pi_est
  print '(a, f8.5)', 'r ', r
  print '(5f9.5)', x(1:10)
  print *, 'seed size positive: ', k > 0, k <= 64
  print *, 'clock ran: ', rate > 0 .and. cmax > 0, t1 >= t0
  print *, 'a year: ', vals(1) > 2000, day /= ' '
end program clock_random
