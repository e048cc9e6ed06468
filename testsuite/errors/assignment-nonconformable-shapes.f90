! expect: error: shapes do not conform in assignment: extent 10 on the left, 5 on the right, at line 6
program nonconformable
  implicit none
  real :: a(10), b(10)
  b = 1.0
  a(1:10) = b(1:5)
  print *, a
end program nonconformable
