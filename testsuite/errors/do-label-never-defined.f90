! expect: error: label 10 ending the DO at line 5 is never defined (the loop is never closed)
program do_label_undefined
  implicit none
  integer :: i
  do 10 i = 1, 3
    print *, i
end program do_label_undefined
