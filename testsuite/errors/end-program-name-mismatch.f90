! expect: error: END PROGRAM name 'bar' does not match the PROGRAM name 'foo' (line 2) at line 5
program foo
  implicit none
  print *, 'hello'
end program bar
