! expect: error: the SPMD lowering cannot map CHARACTER array 't' at line 6
program character_mapped
  implicit none
  integer, parameter :: n = 6
  character(len=3) :: s(n)
  character(len=3) :: t(n)
!HPF$ DISTRIBUTE (BLOCK) :: t
  s = 'ab'
  t = s
  print '(6a4)', t
end program character_mapped
