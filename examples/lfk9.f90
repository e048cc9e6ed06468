! lfk9.f90 -- Livermore Fortran Kernel 9: integrate predictors.
!
! Validation suite of hpfpredict (after Parashar & Hariri, Table 3: LFK 9).
! PX is a 13 x N array; for every k the first row is a weighted sum of
! rows 3 and 5..13 of the same column:
!     PX(1,k) = DM28*PX(13,k) + DM27*PX(12,k) + ... + DM22*PX(7,k)
!             + C0*(PX(5,k) + PX(6,k)) + PX(3,k)
! written as one assignment to the row section PX(1,:).  Only the second
! (k) dimension is distributed, so every column is local and the kernel
! needs no communication.  Repeated NREP times, with row 3 updated between
! repetitions.
! Mapping: PX(*,k) aligned with a 1-D template of N, (BLOCK) on all
! processors (the first dimension is collapsed).
! Checksum: the sum of PX(1,:) over the repetitions (all positive).

program lfk9
  implicit none
  integer, parameter :: n = 1024
  integer, parameter :: nrep = 10
  real(8), dimension(13, n) :: px
  real(8) :: dm22, dm23, dm24, dm25, dm26, dm27, dm28, c0, s
  integer :: i, k, rep
!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE tmp(n)
!HPF$ DISTRIBUTE tmp(BLOCK) ONTO p
!HPF$ ALIGN px(*, k) WITH tmp(k)

  dm22 = 0.0625d0
  dm23 = 0.0550d0
  dm24 = 0.0480d0
  dm25 = 0.0410d0
  dm26 = 0.0350d0
  dm27 = 0.0290d0
  dm28 = 0.0240d0
  c0 = 0.1250d0
  forall (i = 1:13, k = 1:n) px(i, k) = 1.0d0 + 0.1d0*dble(i) + 0.2d0*sin(0.01d0*dble(k*i))
  s = 0.0d0
  do rep = 1, nrep
    px(1, :) = dm28*px(13, :) + dm27*px(12, :) + dm26*px(11, :)  &
             + dm25*px(10, :) + dm24*px(9, :) + dm23*px(8, :)    &
             + dm22*px(7, :) + c0*(px(5, :) + px(6, :)) + px(3, :)
    s = s + sum(px(1, :))
    px(3, :) = 0.5d0*(px(3, :) + px(1, :))
  end do

  print '(a,es22.14)', 'lfk9 checksum ', s
end program lfk9
