! A dummy argument may not be mapped: the lowering has no descriptor passing.
subroutine scale(a, n)
  integer :: n
  real(8), dimension(n) :: a
!HPF$ DISTRIBUTE a(BLOCK)
  a = 2.0d0*a
end subroutine scale
