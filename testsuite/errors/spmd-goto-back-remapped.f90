! expect: error: GOTO 10: 'a' is mapped differently at label 10 (a REDISTRIBUTE or REALIGN lies between): the SPMD lowering needs one mapping per statement at line 13 (valid Fortran, refused as outside the subset)
program spmd_goto_back_remapped
  implicit none
  real :: a(16)
  integer :: k
!hpf$ dynamic a
!hpf$ distribute a(block)
  a = 1.0
  k = 0
10 k = k + 1
  a = a + 1.0
!hpf$ redistribute a(cyclic)
  if (k < 3) goto 10
  print *, sum(a)
end program
