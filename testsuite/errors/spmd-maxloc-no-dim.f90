! MAXLOC in an array assignment needs DIM=.
program p
  real(8), dimension(16) :: x
  integer, dimension(1) :: k
  integer :: i
!HPF$ DISTRIBUTE x(BLOCK)
  forall (i = 1:16) x(i) = dble(mod(7*i, 16))
  k = maxloc(x)
  print *, k
end program p
