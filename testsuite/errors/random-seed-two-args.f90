! expect: error: intrinsic subroutine 'random_seed' takes one argument or none, 2 given at line 5
program random_seed_two_args
  implicit none
  integer :: k, s(64)
  call random_seed(size=k, get=s)
  print *, k
end program random_seed_two_args
