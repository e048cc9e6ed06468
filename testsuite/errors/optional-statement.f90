! expect: error: OPTIONAL statement (use the OPTIONAL attribute) is not supported in the HPF subset at line 8 (valid Fortran, refused as outside the subset)
program optional_statement
  implicit none
  call show(1.0)
contains
  subroutine show(value)
    real, intent(in) :: value
    optional :: value
    print *, value
  end subroutine show
end program optional_statement
