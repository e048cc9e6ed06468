! expect: error: unknown dotted operator '.foo.' at line 7
program unknown_operator
  implicit none
  logical :: a, b, c
  a = .true.
  b = .false.
  c = a .foo. b
  print *, c
end program unknown_operator
