! expect: error: a FORALL bound uses an index of its own header (line 5)
program t
integer :: i, j
real :: b(10,10)
forall (i = 1:10, j = 1:i) b(i, j) = 0
end program t
