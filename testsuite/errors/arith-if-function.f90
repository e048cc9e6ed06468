! expect: error: an arithmetic IF whose expression references a function, at line 5 (valid Fortran the SPMD lowering refuses)
program aif
  implicit none
  integer :: k
  if (sgn(-2)) 10, 20, 20
10 k = 1
20 print *, k
contains
  integer function sgn(i)
    integer, intent(in) :: i
    sgn = sign(1, i)
  end function sgn
end program aif
