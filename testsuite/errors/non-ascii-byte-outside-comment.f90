! expect: error: non-ASCII byte 0xd7 outside a comment or character literal at line 7 (the same byte in the comment on line 6 is accepted)
program non_ascii_byte
  implicit none
  real :: x, y
  x = 2.0
  ! × below is a Latin-1 multiplication sign, not *
  y = x × 3.0
  print *, y
end program non_ascii_byte
