! Test: allocatable DYNAMIC array, distributed at ALLOCATE time, then
! REDISTRIBUTEd back and forth between (BLOCK,*) and (*,BLOCK) around
! ADI-style line sweeps, so each sweep runs along a local dimension.
program alloc_redist
  implicit none
  integer, parameter :: n = 48
  integer, parameter :: nsweep = 3
  real*8, allocatable :: u(:,:)
  integer i, j, it
!HPF$ PROCESSORS p(4)
!HPF$ DYNAMIC u
!HPF$ DISTRIBUTE u(BLOCK,*) ONTO p

  allocate(u(n,n))

  forall (i = 1:n, j = 1:n) u(i,j) = dble(mod(i + 2*j, 13))
  write(*,'(A,F14.4)') ' initial sum ', sum(u)

  do it = 1, nsweep
     ! row sweep: recurrence along j, rows independent (local in BLOCK,*)
!HPF$ INDEPENDENT, NEW(j)
     do i = 1, n
        do j = 2, n
           u(i,j) = 0.5d0*(u(i,j) + u(i,j-1))
        end do
        do j = n-1, 1, -1
           u(i,j) = 0.5d0*(u(i,j) + u(i,j+1))
        end do
     end do
     write(*,'(A,I2,A,F14.4)') ' iter', it, ' after rows   ', sum(u)

!HPF$ REDISTRIBUTE u(*,BLOCK) ONTO p

     ! column sweep: recurrence along i, columns independent
!HPF$ INDEPENDENT, NEW(i)
     do j = 1, n
        do i = 2, n
           u(i,j) = 0.5d0*(u(i,j) + u(i-1,j))
        end do
        do i = n-1, 1, -1
           u(i,j) = 0.5d0*(u(i,j) + u(i+1,j))
        end do
     end do
     write(*,'(A,I2,A,F14.4)') ' iter', it, ' after columns', sum(u)

!HPF$ REDISTRIBUTE u(BLOCK,*) ONTO p

     ! a source term added in array syntax under the original mapping
     u(1:n:2,:) = u(1:n:2,:) + 1.0d0
     write(*,'(A,I2,A,F14.4)') ' iter', it, ' after source ', sum(u)
  end do

  write(*,'(A,2F12.4)') ' max, min   ', maxval(u), minval(u)
  write(*,'(A,2F12.4)') ' corners    ', u(1,1), u(n,n)
  deallocate(u)
end program alloc_redist
