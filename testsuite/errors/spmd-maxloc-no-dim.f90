! MAXLOC of a rank-2 array in an array assignment needs DIM= (rank 1 is lowered).
program p
  real(8), dimension(16, 4) :: x
  integer, dimension(2) :: k
  integer :: i, j
!HPF$ DISTRIBUTE x(BLOCK, *)
  forall (i = 1:16, j = 1:4) x(i, j) = dble(mod(7*i + j, 16))
  k = maxloc(x)
  print *, k
end program p
