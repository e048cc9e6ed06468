! expect: error: 'selected_real_kind' asks for more than kind 8 gives: kinds 10 and 16 are not supported in the HPF subset at line 4 (valid Fortran, refused as outside the subset)
program selected_real_kind_quad
  implicit none
  integer, parameter :: qp = selected_real_kind(30)
  real(8) :: x
  x = 1.0_8
  print *, x, qp
end program selected_real_kind_quad
