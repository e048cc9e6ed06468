! expect: error: cannot store random numbers in '3.0': not a variable at line 4
program intrinsic_sub_constant
  implicit none
  call random_number(3.0)
end program intrinsic_sub_constant
