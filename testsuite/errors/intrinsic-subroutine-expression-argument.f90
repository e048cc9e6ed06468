! expect: error: SYSTEM_CLOCK given an expression where it stores the count, at line 5
program intrinsic_subroutine_expression_argument
  implicit none
  integer :: c0
  call system_clock(-c0)
  print *, c0
end program intrinsic_subroutine_expression_argument
