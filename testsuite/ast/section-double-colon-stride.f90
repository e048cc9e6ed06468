program t
  integer :: v(5)
  v = 1
  print *, v(1::2)
end program t
