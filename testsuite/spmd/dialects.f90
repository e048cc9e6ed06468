! dialects.f90 -- the directive spellings of other HPF compilers, accepted
! with a warning naming the standard form: ALIGN with several alignees,
! ALIGN WITH t :: a, b (no source list), DISTRIBUTE t without formats
! (BLOCK), INDEPENDENT (i, j) over a nest, HPF 2.0's INDEPENDENT,
! REDUCTION; other tools' directives (!DIR$, !FCD$) ignored with a note.
! Extents 23 and 23 x 7.
program spmd_dialects
  implicit none
  integer, parameter :: n = 23, m = 7
  real(8) :: a(n), b(n), c(n), d(n), g(n, m), h(n, m), s
  integer :: i, j
!HPF$ TEMPLATE t(n)
!HPF$ DISTRIBUTE t
!HPF$ ALIGN a(i), b(i) WITH t(i)
!HPF$ ALIGN WITH t :: c, d
!HPF$ DISTRIBUTE (BLOCK, *) :: g, h
!DIR$ IVDEP
!FCD$ PARALLEL
  forall (i = 1:n) a(i) = dble(mod(5*i, 13))
  b = 2.0d0*a
  c = cshift(a, 2) + b
  d = c - eoshift(b, -1)
!HPF$ INDEPENDENT (i, j)
  do i = 1, n
    do j = 1, m
      g(i, j) = a(i) + dble(j)
    end do
  end do
!HPF$ INDEPENDENT (j, i), NEW(i)
  do j = 1, m
    do i = 1, n
      h(i, j) = g(i, j)*0.5d0 + d(i)
    end do
  end do
  s = 0.0d0
!HPF$ INDEPENDENT, REDUCTION(s)
  do i = 1, n
    s = s + c(i)*d(i)
  end do
  print '(a,es22.14)', 'dialects a b ', sum(a) + sum(b)
  print '(a,es22.14)', 'dialects c d ', sum(c*d)
  print '(a,es22.14)', 'dialects g h ', sum(g) + sum(h*h)
  print '(a,es22.14)', 'dialects s ', s
end program spmd_dialects
