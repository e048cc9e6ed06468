! expect: error: intrinsic subroutine 'mvbits' is not supported in the HPF subset at line 6 (valid Fortran, refused as outside the subset)
program use_mvbits
  implicit none
  integer :: i, j
  i = 5
  call mvbits(i, 0, 2, j, 1)
  print *, j
end program use_mvbits
