! expect: error: a mapped module array renamed by USE, at line 9 (valid HPF the SPMD lowering refuses)
module grid
  implicit none
  real :: a(16)
!hpf$ distribute a(block)
end module grid

program spmd_use_rename_mapped
  use grid, only: field => a
  implicit none
  field = 1.0
  print *, sum(field)
end program spmd_use_rename_mapped
