! READ into a CHARACTER variable is not lowered.
program p
  character(len=10) :: title
  real(8), dimension(10) :: x
!HPF$ DISTRIBUTE x(BLOCK)
  read *, title
  x = 1.0d0
  print *, title, sum(x)
end program p
