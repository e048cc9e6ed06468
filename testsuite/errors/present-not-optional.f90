! expect: error: PRESENT of a dummy that is not OPTIONAL, at line 9
program present_not_optional
  implicit none
  call show(1.0)
contains
  subroutine show(value)
    real, intent(in) :: value
    print *, value
    if (present(value)) print *, 'given'
  end subroutine show
end program present_not_optional
