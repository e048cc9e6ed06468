! expect: error: REDISTRIBUTE is outside the subset, at line 7 (HPF directive, refused as outside the subset; no DYNAMIC, which would be a second refusal)
program redistribute_refused
  implicit none
  real :: a(100)
!HPF$ DISTRIBUTE A(BLOCK)
  a = 1.0
!HPF$ REDISTRIBUTE A(CYCLIC)
  print *, sum(a)
end program redistribute_refused
