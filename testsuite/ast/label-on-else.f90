program t
  integer :: i
  i = 1
  if (i > 0) then
    i = 2
10 else
    i = 3
  end if
  print *, i
end program t
