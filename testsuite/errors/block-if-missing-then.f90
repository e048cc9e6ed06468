! expect: error: THEN expected after the condition of the block IF at line 7 (the END IF at line 9 closes it and must not be reported as well)
program missing_then
  implicit none
  real :: x, y
  x = 1.0
  y = 0.0
  if (x > 0.0)
    y = x
  end if
  print *, y
end program missing_then
