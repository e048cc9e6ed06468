! expect: error: a required (not OPTIONAL) argument left out, at line 5
program optional_missing_required
  implicit none
  real :: x = 1.0
  call show(scale=2.0)
  print *, x
contains
  subroutine show(value, scale)
    real, intent(in) :: value
    real, intent(in), optional :: scale
    print *, value
    if (present(scale)) print *, scale
  end subroutine show
end program optional_missing_required
