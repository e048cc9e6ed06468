! expect: error: ALIGN target 't(i)' has 1 subscript but template 't' has rank 2 at line 7
program align_target_rank
  implicit none
  real :: a(100)
!HPF$ TEMPLATE T(100, 4)
!HPF$ DISTRIBUTE T(BLOCK, *)
!HPF$ ALIGN A(I) WITH T(I)
  a = 1.0
  print *, sum(a)
end program align_target_rank
