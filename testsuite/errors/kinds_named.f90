program kinds_named
  implicit none
  integer, parameter :: qp = selected_real_kind(30)
  integer, parameter :: ik = selected_int_kind(12)
  integer :: n
  real(kind=selected_real_kind(p=6)) :: z
  integer(ik) :: big
  z = 1.0_zz
  n = 3
  big = 12345678901_ik
  print *, z, 2_n, big, kind(z), kind(big)
end program kinds_named
