! expect: error: PACK inside an expression, at line 8 (valid Fortran the SPMD lowering refuses)
program spmd_pack_in_expression
  implicit none
  real :: a(10), s
!hpf$ distribute a(block)
  a = 1.0
  s = 0.0
  s = sum(pack(a, a > 0.0)) + s
  print *, s
end program spmd_pack_in_expression
