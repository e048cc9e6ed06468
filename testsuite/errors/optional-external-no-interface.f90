! expect: error: an external procedure with an OPTIONAL dummy called without its interface, at line 5
program optional_external
  implicit none
  real :: y
  call setv(y)
  print *, y
end program optional_external

subroutine setv(v, w)
  implicit none
  real :: v
  real, optional :: w
  v = 1.0
  if (present(w)) v = w
end subroutine setv
