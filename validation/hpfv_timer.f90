! hpfv_timer.f90 - the clock of the validation harness (validation/validate.sh).
!
! Linked into a generated SPMD program with
!     -Wl,--wrap=hpfrt_init_ -Wl,--wrap=hpfrt_finalize_
! so that the program's calls of hpfrt_init and hpfrt_finalize come here
! first. After hpfrt_init (MPI is then up) every process waits at a barrier
! and reads MPI_Wtime and its CPU time (CPU_TIME); at hpfrt_finalize each
! takes its elapsed and CPU times, the maxima over the processes (the
! slowest one) go to rank 0, which writes on standard error
!     hpfv: elapsed <seconds> np <processes> cpu <seconds>
! and only then is the real hpfrt_finalize called (its profile, if any, and
! MPI_Finalize are not timed). MPI start-up and shut-down are thus outside
! the measurement; the program's own set-up (descriptors, allocation), its
! work, its communication and its output are inside.
module hpfv_timer
  implicit none
  include 'mpif.h'
  double precision, save :: hpfv_t0 = 0.0d0, hpfv_c0 = 0.0d0
  interface
    subroutine hpfv_real_init() bind(c, name='__real_hpfrt_init_')
    end subroutine hpfv_real_init
    subroutine hpfv_real_finalize() bind(c, name='__real_hpfrt_finalize_')
    end subroutine hpfv_real_finalize
  end interface
contains
  subroutine hpfv_init() bind(c, name='__wrap_hpfrt_init_')
    integer :: ierr
    call hpfv_real_init()
    call mpi_barrier(MPI_COMM_WORLD, ierr)
    hpfv_t0 = mpi_wtime()
    call cpu_time(hpfv_c0)
  end subroutine hpfv_init

  subroutine hpfv_finalize() bind(c, name='__wrap_hpfrt_finalize_')
    integer :: ierr, rank, np
    double precision :: t(2), tmax(2), c
    t(1) = mpi_wtime() - hpfv_t0
    call cpu_time(c)
    t(2) = c - hpfv_c0
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
    call mpi_reduce(t, tmax, 2, MPI_DOUBLE_PRECISION, MPI_MAX, 0, &
                    MPI_COMM_WORLD, ierr)
    if (rank == 0) then
      write (0, '(a,es16.9,a,i0,a,es16.9)') 'hpfv: elapsed ', tmax(1), ' np ', np, &
        ' cpu ', tmax(2)
      flush (0)
    end if
    call hpfv_real_finalize()
  end subroutine hpfv_finalize
end module hpfv_timer
