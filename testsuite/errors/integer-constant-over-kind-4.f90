! expect: error: an INTEGER constant over the range of kind 4, at line 5
program integer_constant_over_kind_4
  implicit none
  integer :: i
  i = 3000000000
  print *, i
end program integer_constant_over_kind_4
