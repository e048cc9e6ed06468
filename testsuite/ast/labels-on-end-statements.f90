program enddo
  integer :: i, s
  s = 0
  do 10 i = 1, 5
    if (i == 3) go to 10
    s = s + i
10 end do
  print *, s
  do i = 1, 5
    if (i == 2) go to 20
    s = s + 1
20 end do
  print *, s
  if (s > 0) then
    go to 30
    s = 0
30 end if
  print *, s
end program enddo
