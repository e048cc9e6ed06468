! expect: error: a WRITE naming a format label that no FORMAT statement of the unit has, at line 5
program fmt_missing
  integer :: i
  i = 3
  write (*, 200) i
100 format (i4)
end program fmt_missing
