! expect: error: a FORALL of 8 indices, more than the 7 the subset takes, at line 6 (valid Fortran, refused as outside the subset)
program forall_more_than_seven_indices
  implicit none
  integer :: a(2, 2, 2, 2, 2, 2, 2)
  integer :: i1, i2, i3, i4, i5, i6, i7, i8
  forall (i1 = 1:2, i2 = 1:2, i3 = 1:2, i4 = 1:2, i5 = 1:2, i6 = 1:2, i7 = 1:2, i8 = 1:2) a(i1, i2, i3, i4, i5, i6, i7) = i8
  print *, sum(a)
end program forall_more_than_seven_indices
