! expect: error: a GOTO over a REDISTRIBUTE to a label where the mapping differs, at line 12 (valid HPF the SPMD lowering refuses)
! the old mapping, the statements before the label with the new one.
program goto_across
  implicit none
  integer, parameter :: n = 10
  real :: a(n)
  integer :: k
!HPF$ DYNAMIC a
!HPF$ DISTRIBUTE a(BLOCK)
  a = 1.0
  k = 2
  if (k > 1) goto 10
!HPF$ REDISTRIBUTE a(CYCLIC)
  a = a + 1.0
10 continue
  print *, sum(a)
end program
