! expect: error: FORALL index 'i' is already the index of the enclosing FORALL (line 7) at line 8
program forall_index_reused
  implicit none
  integer :: i
  real :: a(10, 10)
  a = 1.0
  forall (i = 1:10)
    forall (i = 1:10) a(i, i) = 0.0
  end forall
  print *, a
end program forall_index_reused
