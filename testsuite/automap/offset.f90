! offset.f90 -- two arrays aligned one cell apart (test program for the
! mapping search: best with the offset dropped).
!
! A(i) sits in template cell i and B(i) in cell i+1, as a code would
! write to leave room for a boundary cell; every statement reads A(i) and
! B(i) together, so each one sends the element at every block's edge to
! the neighbour. Aligned alike (the offset dropped), nothing moves.
! Checksum: sum(A) + sum(B).

program offset
  implicit none
  integer, parameter :: n = 4096, nit = 50
  real(8), dimension(n) :: a, b
  integer :: i, it
!HPF$ PROCESSORS p(4)
!HPF$ TEMPLATE t(n + 1)
!HPF$ DISTRIBUTE t(BLOCK) ONTO p
!HPF$ ALIGN a(i) WITH t(i)
!HPF$ ALIGN b(i) WITH t(i + 1)

  forall (i = 1:n) b(i) = dble(i)/dble(n)
  do it = 1, nit
    forall (i = 1:n) a(i) = 0.5d0*b(i) + 1.0d0
    forall (i = 1:n) b(i) = a(i) - 0.25d0*b(i)
  end do
  print '(a,es22.14)', 'offset checksum ', sum(a) + sum(b)
end program offset
