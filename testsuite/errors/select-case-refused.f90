! expect: error: SELECT CASE is outside the subset, at line 6; the CASE and END SELECT lines belong to it and get no diagnostic of their own (valid Fortran, refused as outside the subset)
program select_case_refused
  implicit none
  integer :: n
  n = 1
  select case (n)
  case (1)
    print *, 'one'
  case default
    print *, 'other'
  end select
end program select_case_refused
