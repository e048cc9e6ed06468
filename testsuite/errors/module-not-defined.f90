! expect: error: a USE of a module the file does not define, at line 3
program module_not_defined
  use nowhere
  implicit none
  print *, 'hello'
end program module_not_defined
