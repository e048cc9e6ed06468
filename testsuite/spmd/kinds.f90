! kinds.f90 - kind parameters as present-day codes write them: a working
! precision from KIND and SELECTED_REAL_KIND, literals with a named kind
! suffix, an INTEGER kind from SELECTED_INT_KIND, KIND() of a variable.
program kinds
  implicit none
  integer, parameter :: sp = kind(1.0)
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: wp = selected_real_kind(p=12)
  integer, parameter :: ik = selected_int_kind(12)
  integer, parameter :: n = 16
  real(wp) :: u(0:n+1), unew(0:n+1), h, err
  real(kind=sp) :: s
  integer(ik) :: big
  integer :: i, it
!hpf$ distribute (block) :: u, unew
  h = 1.0_wp / real(n + 1, wp)
  u = 0.0_wp
  u(n+1) = 1.0_dp
  do it = 1, 200
     forall (i = 1:n) unew(i) = 0.5_wp * (u(i-1) + u(i+1))
     err = maxval(abs(unew(1:n) - u(1:n)))
     u(1:n) = unew(1:n)
     if (err < 1.0e-6_wp) exit
  end do
  s = real(u(n/2), sp)
  big = 1234567_ik * 1000000_ik
  print '(a, i4, a, es12.4)', 'iterations ', it, ' change ', err
  print '(a, f10.6, f10.6)', 'midpoint ', u(n/2), s
  print *, 'kinds', sp, dp, wp, ik, kind(big), kind(s), kind(h), kind(.true.)
  print *, big, h
end program kinds
