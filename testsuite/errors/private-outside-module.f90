! expect: error: a PRIVATE statement in a main program, at line 4
program private_outside_module
  implicit none
  private
  print *, 'hello'
end program private_outside_module
