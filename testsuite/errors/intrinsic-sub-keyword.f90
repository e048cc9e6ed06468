! expect: error: intrinsic subroutine 'system_clock' has no argument named 'rate' at line 5
program intrinsic_sub_keyword
  implicit none
  integer :: c, r
  call system_clock(c, rate=r)
  print *, c, r
end program intrinsic_sub_keyword
