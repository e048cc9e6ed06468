! expect: error: a keyword argument to an external procedure (no interface), at line 5
program keyword_external
  implicit none
  real :: x
  call show(value=x)
end program keyword_external

subroutine show(value)
  implicit none
  real, intent(in) :: value
  print *, value
end subroutine show
