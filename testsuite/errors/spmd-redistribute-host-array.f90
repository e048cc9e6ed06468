! expect: error: a REDISTRIBUTE of an array an internal procedure uses, at line 10 (valid HPF the SPMD lowering refuses)
! mapping.
program host_remap
  implicit none
  integer, parameter :: n = 10
  real :: a(n)
!HPF$ DYNAMIC a
!HPF$ DISTRIBUTE a(BLOCK)
  a = 1.0
!HPF$ REDISTRIBUTE a(CYCLIC)
  call bump
  print *, sum(a)
contains
  subroutine bump
    a = a + 1.0
  end subroutine
end program
