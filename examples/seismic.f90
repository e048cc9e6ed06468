! seismic.f90 -- a seismic-style processing program, after the Seismic
! benchmark whose phases Armstrong & Eigenmann described by resource usage
! equations (doc/forecasting.md): n traces of ns samples are generated
! and written to disk, read back, filtered in time, stacked over
! neighbouring receivers (an exchange between processors), corrected for
! move-out and written out, in six phases named for hpfpredict (!PHASE$).
! The files are deleted when they are closed for the last time.
! Sizes: n traces (receivers) of ns samples.
! Mapping: the traces (the second dimension) distributed BLOCK, each
! processor holding whole traces.
! Checksum: the sum of the corrected section.
program seismic
  implicit none
  integer, parameter :: n = 256        ! traces (receivers)
  integer, parameter :: ns = 512       ! samples a trace
  real(8), dimension(ns, n) :: tr, flt, stk
  integer :: i, j
!HPF$ DISTRIBUTE tr(*, BLOCK)
!HPF$ ALIGN flt(i, j) WITH tr(i, j)
!HPF$ ALIGN stk(i, j) WITH tr(i, j)

!PHASE$ generate the traces and write them
  forall (i = 1:ns, j = 1:n) tr(i, j) = sin(0.05d0*dble(i) + 0.01d0*dble(j)) &
                                          * exp(-0.002d0*dble(i))
  open (unit=21, file='seismic_traces.dat', form='unformatted', status='replace')
  write (21) tr
  close (21)

!PHASE$ read the traces
  tr = 0.0d0
  open (unit=22, file='seismic_traces.dat', form='unformatted', status='old')
  read (22) tr
  close (22, status='delete')

!PHASE$ filter in time
  flt = tr
  forall (i = 2:ns - 1, j = 1:n) flt(i, j) = 0.25d0*tr(i - 1, j) + 0.5d0*tr(i, j) &
                                              + 0.25d0*tr(i + 1, j)

!PHASE$ stack neighbouring traces
  stk = flt
  forall (i = 1:ns, j = 2:n - 1) stk(i, j) = (flt(i, j - 1) + flt(i, j) + flt(i, j + 1))/3.0d0

!PHASE$ correct the move-out
  tr = stk
  forall (i = 9:ns, j = 1:n) tr(i, j) = stk(i - mod(j, 8), j)

!PHASE$ write the section
  open (unit=23, file='seismic_section.dat', form='unformatted', status='replace')
  write (23) tr
  close (23, status='delete')
  print '(a,es22.14)', 'seismic checksum ', sum(tr)
end program seismic
