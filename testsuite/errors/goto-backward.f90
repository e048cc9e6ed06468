! expect: error: backward GOTO to label 10 (defined at line 6) at line 7: only forward GOTO is in the subset (valid Fortran, refused as outside the subset)
program backward_goto
  implicit none
  integer :: k
  k = 0
10 k = k + 1
  if (k < 3) goto 10
  print *, k
end program backward_goto
