! expect: error: GOTO to label 99, which is not defined in this program unit, at line 6
program goto_undefined
  implicit none
  integer :: k
  k = 1
  if (k > 0) goto 99
  k = 2
  print *, k
end program goto_undefined
