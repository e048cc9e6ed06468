! expect: error: DISTRIBUTE has 1 distributed (non-'*') dimension but ONTO processor arrangement 'p' has rank 2 at line 7
program distribute_onto_rank
  implicit none
  real :: a(100, 100)
!HPF$ PROCESSORS P(2, 2)
!HPF$ TEMPLATE T(100, 100)
!HPF$ DISTRIBUTE T(BLOCK, *) ONTO P
!HPF$ ALIGN A(I, J) WITH T(I, J)
  a = 1.0
  print *, sum(a)
end program distribute_onto_rank
