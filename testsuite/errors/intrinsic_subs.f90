program intrinsic_subs
  integer :: i, s(4), a(5)
  real :: t
  real(8) :: tt
  call cpu_time(i)
  call cpu_time()
  call random_number(a)
  call random_seed(size=i, get=s)
  call random_seed(put=3)
  call system_clock(count=i, cnt=i)
  call date_and_time(values=i)
  call random_number(3.0)
  call cpu_time(tt)
  call mvbits(i, 0, 1, i, 0)
end program
