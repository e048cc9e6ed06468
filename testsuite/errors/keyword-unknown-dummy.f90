! expect: error: a keyword naming no dummy of the procedure, at line 5
program keyword_unknown_dummy
  implicit none
  real :: x = 1.0
  call show(val=x)
contains
  subroutine show(value)
    real, intent(in) :: value
    print *, value
  end subroutine show
end program keyword_unknown_dummy
