! expect: error: STAT= in the ALLOCATE of a mapped array, at line 8 (valid HPF the SPMD lowering refuses)
program alloc_stat
  implicit none
  real(8), allocatable :: a(:)
  integer :: ios
!HPF$ DISTRIBUTE a(BLOCK)
  ios = 0
  allocate(a(10), stat=ios)
  a = 1.0d0
  print *, sum(a), ios
end program alloc_stat
