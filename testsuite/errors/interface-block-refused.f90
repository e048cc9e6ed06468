! expect: error: INTERFACE block is outside the subset, at line 4 (valid Fortran, refused as outside the subset)
program interface_refused
  implicit none
  interface
    subroutine hello()
      implicit none
    end subroutine hello
  end interface
  call hello()
end program interface_refused
subroutine hello()
  implicit none
  print *, 'hello'
end subroutine hello
