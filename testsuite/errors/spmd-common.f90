! A mapped array may not be in COMMON.
program p
  real(8), dimension(10) :: x
  common x
!HPF$ DISTRIBUTE x(BLOCK)
  x = 1.0d0
  print *, sum(x)
end program p
