! expect: error: BLOCK(20) over 4 processors covers 80 elements, fewer than the extent 100 (k*P < N) at line 6
program block_too_small
  implicit none
  real :: a(100)
!HPF$ PROCESSORS P(4)
!HPF$ DISTRIBUTE A(BLOCK(20)) ONTO P
  a = 1.0
  print *, sum(a)
end program block_too_small
