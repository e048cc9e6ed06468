! NUMBER_OF_PROCESSORS() in the specification expressions of directives: a
! TEMPLATE extent, an ALIGN subscript, a CYCLIC(k) argument (lowered to
! hpfrt_nprocs(), evaluated by the predictor for -np).
program np
  implicit none
  integer, parameter :: n = 20
  real :: a(n), b(n)
  integer :: i
!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE t(2 * NUMBER_OF_PROCESSORS() + n)
!HPF$ DISTRIBUTE t(BLOCK) ONTO p
!HPF$ ALIGN a(i) WITH t(i + NUMBER_OF_PROCESSORS())
!HPF$ DISTRIBUTE b(CYCLIC(NUMBER_OF_PROCESSORS())) ONTO p
  forall (i = 1:n) a(i) = i
  b = a(n:1:-1)
  print *, sum(a * b), b(1)
end program np
