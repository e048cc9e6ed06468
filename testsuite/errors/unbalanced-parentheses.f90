! expect: error: ')' expected, unbalanced parentheses in the expression at line 6
program unbalanced_parentheses
  implicit none
  real :: x, y
  y = 2.0
  x = (y + 1.0) * (y - 1.0
  print *, x
end program unbalanced_parentheses
