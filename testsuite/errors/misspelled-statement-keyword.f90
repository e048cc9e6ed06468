! expect: error: unclassifiable statement 'prnt *, x' (not a keyword statement nor an assignment) at line 6
program misspelled_keyword
  implicit none
  real :: x
  x = 1.0
  prnt *, x
end program misspelled_keyword
