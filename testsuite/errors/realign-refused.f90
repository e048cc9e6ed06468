! expect: error: REALIGN is outside the subset, at line 9 (HPF directive, refused as outside the subset; no DYNAMIC, which would be a second refusal)
program realign_refused
  implicit none
  real :: a(100)
!HPF$ TEMPLATE T(200)
!HPF$ DISTRIBUTE T(BLOCK)
!HPF$ ALIGN A(I) WITH T(I)
  a = 1.0
!HPF$ REALIGN A(I) WITH T(2*I)
  print *, sum(a)
end program realign_refused
