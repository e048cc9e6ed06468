! expect: error: REDISTRIBUTE of an ALLOCATABLE array, at line 10 (valid HPF the SPMD lowering refuses)
program redist_alloc
  implicit none
  real(8), allocatable :: a(:)
!HPF$ DYNAMIC a
!HPF$ DISTRIBUTE a(BLOCK)
  allocate(a(10))
  a = 1.0d0
  a = a + 1.0d0
!HPF$ REDISTRIBUTE a(CYCLIC)
  print *, sum(a)
end program redist_alloc
