! expect: error: DO variable 'x' must be INTEGER (REAL DO variables are refused) at line 5
program do_real_variable
  implicit none
  real :: x
  do x = 1.0, 3.0
    print *, x
  end do
end program do_real_variable
