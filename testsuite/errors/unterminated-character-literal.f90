! expect: error: unterminated character literal (no closing quote before the end of the line) at line 4
program unterminated_string
  implicit none
  print *, 'hello, world
end program unterminated_string
