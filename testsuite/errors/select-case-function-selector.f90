! expect: error: a SELECT CASE whose selector references a function, at line 5 (valid Fortran the SPMD lowering refuses)
program sel_fn
  implicit none
  integer :: k
  select case (iabs2(-3))
  case (3)
    k = 1
  case default
    k = 0
  end select
  print *, k
contains
  integer function iabs2(i)
    integer, intent(in) :: i
    iabs2 = abs(i)
  end function iabs2
end program sel_fn
