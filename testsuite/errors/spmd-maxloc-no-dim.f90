! MAXLOC without DIM= of an array that varies with the FORALL's index is not lowered (one that does not is).
program p
  real(8), dimension(16, 4, 3) :: x
  integer, dimension(2, 3) :: l
  integer :: i, j, k
!HPF$ DISTRIBUTE x(BLOCK, *, *)
  forall (i = 1:16, j = 1:4, k = 1:3) x(i, j, k) = dble(mod(7*i + j*k, 16))
  forall (k = 1:3) l(:, k) = maxloc(x(:, :, k))
  print *, l
end program p
