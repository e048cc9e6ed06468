! align_offset.f90 -- ALIGN with offsets and affine subscripts.
!
! Example of an HPF directive form accepted by hpfpredict; the first part
! is the example of Parashar & Hariri's Figure 6.
! A(5,4) and B(5,6) are aligned with TMPL(8,8), distributed (*, BLOCK) onto
! 4 processors (two template columns each).  A(I,J) sits on TMPL(I,J) and
! B(I,J) on TMPL(I+3,J+2): B(I,J) lives with A(I+3,J+2), so
! B(1:2,1:2) = A(4:5,3:4) moves no data, while B(:,1) = A(:,1) does.
! E(I) is aligned with T2(2*I-1): E(I) lives with F(2*I-1), so
! E = F(1:15:2) is local.
! Checksum: sum(A) + sum(B) + sum(E).

program dir_align_offset
  implicit none
  real(8), dimension(5, 4) :: a
  real(8), dimension(5, 6) :: b
  real(8), dimension(8) :: e
  real(8), dimension(16) :: f
  integer :: i, j
!HPF$ PROCESSORS PROC(4)
!HPF$ TEMPLATE TMPL(8, 8)
!HPF$ DISTRIBUTE TMPL(*, BLOCK) ONTO PROC
!HPF$ ALIGN A(I, J) WITH TMPL(I, J)
!HPF$ ALIGN B(I, J) WITH TMPL(I + 3, J + 2)
!HPF$ TEMPLATE T2(16)
!HPF$ DISTRIBUTE T2(BLOCK) ONTO PROC
!HPF$ ALIGN E(I) WITH T2(2*I - 1)
!HPF$ ALIGN F(I) WITH T2(I)

  forall (i = 1:5, j = 1:4) a(i, j) = dble(10*i + j)
  b = 1.0d0
  b(1:2, 1:2) = a(4:5, 3:4)
  b(:, 1) = b(:, 1) + a(:, 1)
  forall (i = 1:16) f(i) = dble(i*i)
  e = f(1:15:2)

  print '(a,es22.14)', 'align_offset checksum ', sum(a) + sum(b) + sum(e)
end program dir_align_offset
