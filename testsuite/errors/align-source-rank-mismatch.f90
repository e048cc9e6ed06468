! expect: error: ALIGN source 'a(i)' has 1 subscript but array 'a' has rank 2 at line 7
program align_source_rank
  implicit none
  real :: a(100, 100)
!HPF$ TEMPLATE T(100, 100)
!HPF$ DISTRIBUTE T(BLOCK, *)
!HPF$ ALIGN A(I) WITH T(I, *)
  a = 1.0
  print *, sum(a)
end program align_source_rank
