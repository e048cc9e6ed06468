! expect: error: argument 'time' of 'cpu_time' must be a real scalar, not integer at line 5
program intrinsic_sub_type
  implicit none
  integer :: t
  call cpu_time(t)
  print *, t
end program intrinsic_sub_type
