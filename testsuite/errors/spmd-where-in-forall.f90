! A WHERE inside a FORALL whose mask reads what its branches assign (with an ELSEWHERE) is not lowered.
program p
  real(8), dimension(8, 8) :: a
  integer :: i
!HPF$ DISTRIBUTE a(BLOCK, *)
  a = 1.0d0
  forall (i = 1:8)
    where (a(i, :) > 0.5d0)
      a(i, :) = 0.0d0
    elsewhere
      a(i, :) = 2.0d0
    end where
  end forall
  print *, sum(a)
end program p
