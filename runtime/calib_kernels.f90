! calib_kernels.f90 - the loop kernels that hpfcalibrate times.
!
! Compiled by the MPI Fortran compiler with the flags of the SPMD programs
! (runtime/local.mk: $(MPIFC) $(CALIB_FCFLAGS), -O2 unless changed), so that
! a kernel gets the code a generated program's loop gets. Every loop has the
! shape hpfc emits (doc/spmd.md):
!     do i = f, e, k          ! run-time bounds and step
!       ... x(l) ...          ! the local index, advanced by its own step
!       l = l + m
!     end do
! The callers (calib_proc.c, calib_mem.c) time a kernel against its base
! (the same loop doing only the copy) and divide the difference by the
! operations added. Results go to the caller's arrays, so the compiler
! cannot delete the work; operands the compiler could fold (integer chains
! with loop-invariant operands) are made to depend on the value itself.
!
! The kernels are alike on purpose: each operation has a loop of its own
! (the choice made once, outside it), so that the loop timed is the code
! the operation gets in a generated loop, with no dispatch inside.
!
! The double-precision kernels: y(l) = f(x(l)) for f chosen by op; c holds
! run-time constants (never folded: the compiler does not see them).
subroutine ck_dop(op, n, k, m, x, y, c) bind(c, name='ck_dop')
    use, intrinsic :: iso_c_binding
    implicit none
    integer(c_int), value :: op, n, k, m
    real(c_double), intent(in) :: x(*), c(*)
    real(c_double), intent(inout) :: y(*)
    integer :: i, l, r, len
    real(c_double) :: t, u
    l = 1
    select case (op)
    case (0)                    ! the base: load, store, iteration
        do i = 1, n, k
            y(l) = x(l)
            l = l + m
        end do
    case (1)                    ! 8 dependent adds (no reassociation in FP)
        do i = 1, n, k
            t = x(l)
            t = t + c(1); t = t + c(1); t = t + c(1); t = t + c(1)
            t = t + c(1); t = t + c(1); t = t + c(1); t = t + c(1)
            y(l) = t
            l = l + m
        end do
    case (2)                    ! 8 multiplies by c(2), close to 1
        do i = 1, n, k
            t = x(l)
            t = t * c(2); t = t * c(2); t = t * c(2); t = t * c(2)
            t = t * c(2); t = t * c(2); t = t * c(2); t = t * c(2)
            y(l) = t
            l = l + m
        end do
    case (3)                    ! 8 divides by c(2) (no reciprocal without -ffast-math)
        do i = 1, n, k
            t = x(l)
            t = t / c(2); t = t / c(2); t = t / c(2); t = t / c(2)
            t = t / c(2); t = t / c(2); t = t / c(2); t = t / c(2)
            y(l) = t
            l = l + m
        end do
    case (4)                    ! a condition, taken or not as x(l) > c(3)
        do i = 1, n, k
            t = x(l)
            if (t > c(3)) t = t * c(2)
            y(l) = t
            l = l + m
        end do
    case (5)                    ! one more load (and an add): y(l) = x(l) + y(l)
        do i = 1, n, k
            y(l) = x(l) + y(l)
            l = l + m
        end do
    case (6)                    ! one more store (y holds 2n elements)
        do i = 1, n, k
            y(l) = x(l)
            y(l + n) = x(l)
            l = l + m
        end do
    case (7)                    ! one divide beside a chain of 8 adds: does
        do i = 1, n, k          ! the divider work while the adds go on?
            u = x(l)
            t = c(2) / u
            u = u + c(1); u = u + c(1); u = u + c(1); u = u + c(1)
            u = u + c(1); u = u + c(1); u = u + c(1); u = u + c(1)
            y(l) = t + u
            l = l + m
        end do
    case (8)                    ! the loop index converted, as in x(i) = dble(i)
        do i = 1, n, k
            y(l) = x(l) + dble(i)
            l = l + m
        end do
    ! library functions, one call an element (arguments in 0.05..0.95)
    case (10)
        do i = 1, n, k
            y(l) = sqrt(x(l))
            l = l + m
        end do
    case (11)
        do i = 1, n, k
            y(l) = exp(x(l))
            l = l + m
        end do
    case (12)
        do i = 1, n, k
            y(l) = log(x(l))
            l = l + m
        end do
    case (13)
        do i = 1, n, k
            y(l) = log10(x(l))
            l = l + m
        end do
    case (14)
        do i = 1, n, k
            y(l) = sin(x(l))
            l = l + m
        end do
    case (15)
        do i = 1, n, k
            y(l) = cos(x(l))
            l = l + m
        end do
    case (16)
        do i = 1, n, k
            y(l) = tan(x(l))
            l = l + m
        end do
    case (17)
        do i = 1, n, k
            y(l) = atan(x(l))
            l = l + m
        end do
    case (18)
        do i = 1, n, k
            y(l) = atan2(x(l), c(4))
            l = l + m
        end do
    case (19)
        do i = 1, n, k
            y(l) = asin(x(l))
            l = l + m
        end do
    case (20)
        do i = 1, n, k
            y(l) = acos(x(l))
            l = l + m
        end do
    case (21)
        do i = 1, n, k
            y(l) = sinh(x(l))
            l = l + m
        end do
    case (22)
        do i = 1, n, k
            y(l) = cosh(x(l))
            l = l + m
        end do
    case (23)
        do i = 1, n, k
            y(l) = tanh(x(l))
            l = l + m
        end do
    case (24)
        do i = 1, n, k
            y(l) = x(l) ** c(5)
            l = l + m
        end do
    ! cheap intrinsics: 8 in a chain, each with an add that keeps the
    ! chain from folding (the caller subtracts op.dadd)
    case (30)
        do i = 1, n, k
            t = x(l)
            t = abs(t - c(1)); t = abs(t - c(1)); t = abs(t - c(1)); t = abs(t - c(1))
            t = abs(t - c(1)); t = abs(t - c(1)); t = abs(t - c(1)); t = abs(t - c(1))
            y(l) = t
            l = l + m
        end do
    case (31)
        do i = 1, n, k
            t = x(l)
            t = max(t, c(4)) + c(1); t = max(t, c(4)) + c(1)
            t = max(t, c(4)) + c(1); t = max(t, c(4)) + c(1)
            t = max(t, c(4)) + c(1); t = max(t, c(4)) + c(1)
            t = max(t, c(4)) + c(1); t = max(t, c(4)) + c(1)
            y(l) = t
            l = l + m
        end do
    case (32)
        do i = 1, n, k
            t = x(l)
            t = min(t, c(6)) + c(1); t = min(t, c(6)) + c(1)
            t = min(t, c(6)) + c(1); t = min(t, c(6)) + c(1)
            t = min(t, c(6)) + c(1); t = min(t, c(6)) + c(1)
            t = min(t, c(6)) + c(1); t = min(t, c(6)) + c(1)
            y(l) = t
            l = l + m
        end do
    case (33)
        do i = 1, n, k
            t = x(l)
            t = sign(t, c(4)) - c(1); t = sign(t, c(4)) - c(1)
            t = sign(t, c(4)) - c(1); t = sign(t, c(4)) - c(1)
            t = sign(t, c(4)) - c(1); t = sign(t, c(4)) - c(1)
            t = sign(t, c(4)) - c(1); t = sign(t, c(4)) - c(1)
            y(l) = t
            l = l + m
        end do
    ! reductions as hpfc emits them: one accumulator, every element on its
    ! chain (no reassociation in FP), the result stored at the end
    case (40)
        t = 0
        do i = 1, n, k
            t = t + x(l)
            l = l + m
        end do
        y(1) = t
    case (41)
        t = -huge(t)
        do i = 1, n, k
            t = max(t, x(l))
            l = l + m
        end do
        y(1) = t
    case (42)                   ! x near 1: the product neither overflows nor
        t = 1                   ! goes subnormal
        do i = 1, n, k
            t = t * x(l)
            l = l + m
        end do
        y(1) = t
    case (43)                   ! the same in rows of 128, one product a row:
        r = 0                   ! the next row's chain starts while one ends
        do while (r < n)
            len = min(128, n - r)
            t = 1
            do i = 1, len
                t = t * x(l)
                l = l + m
            end do
            y(1 + r / 128) = t
            r = r + len
        end do
    end select
end subroutine ck_dop

! REAL(4): the base and 8-long chains of add, multiply, divide.
subroutine ck_fop(op, n, k, m, x, y, c) bind(c, name='ck_fop')
    use, intrinsic :: iso_c_binding
    implicit none
    integer(c_int), value :: op, n, k, m
    real(c_float), intent(in) :: x(*), c(*)
    real(c_float), intent(inout) :: y(*)
    integer :: i, l
    real(c_float) :: t
    l = 1
    select case (op)
    case (0)
        do i = 1, n, k
            y(l) = x(l)
            l = l + m
        end do
    case (1)
        do i = 1, n, k
            t = x(l)
            t = t + c(1); t = t + c(1); t = t + c(1); t = t + c(1)
            t = t + c(1); t = t + c(1); t = t + c(1); t = t + c(1)
            y(l) = t
            l = l + m
        end do
    case (2)
        do i = 1, n, k
            t = x(l)
            t = t * c(2); t = t * c(2); t = t * c(2); t = t * c(2)
            t = t * c(2); t = t * c(2); t = t * c(2); t = t * c(2)
            y(l) = t
            l = l + m
        end do
    case (3)
        do i = 1, n, k
            t = x(l)
            t = t / c(2); t = t / c(2); t = t / c(2); t = t / c(2)
            t = t / c(2); t = t / c(2); t = t / c(2); t = t / c(2)
            y(l) = t
            l = l + m
        end do
    end select
end subroutine ck_fop

! Default INTEGER. Integer chains with loop-invariant operands would be
! reassociated and hoisted (t+c+c+c is t+3c), and chains of xors and
! shifts collapse (GCC folds eight t = ieor(t, ishft(t,-1)) into one), so
! each step mixes two kinds: a shift right and an add of the value to
! itself, an xor and an add, a multiply and an xor, and a divide of a
! constant by the value (which stays in 1..ic(3)).
subroutine ck_iop(op, n, k, m, x, y, ic) bind(c, name='ck_iop')
    use, intrinsic :: iso_c_binding
    implicit none
    integer(c_int), value :: op, n, k, m
    integer(c_int), intent(in) :: x(*), ic(*)
    integer(c_int), intent(inout) :: y(*)
    integer :: i, l, t
    l = 1
    select case (op)
    case (0)
        do i = 1, n, k
            y(l) = x(l)
            l = l + m
        end do
    case (1)                    ! 8 x (shift, add)
        do i = 1, n, k
            t = x(l)
            t = t + ishft(t, -1); t = t + ishft(t, -1); t = t + ishft(t, -1); t = t + ishft(t, -1)
            t = t + ishft(t, -1); t = t + ishft(t, -1); t = t + ishft(t, -1); t = t + ishft(t, -1)
            y(l) = t
            l = l + m
        end do
    case (2)                    ! 8 x (xor, add): shifts and xors alone would fold
        do i = 1, n, k
            t = x(l)
            t = ieor(t, ic(2)) + ic(1); t = ieor(t, ic(2)) + ic(1)
            t = ieor(t, ic(2)) + ic(1); t = ieor(t, ic(2)) + ic(1)
            t = ieor(t, ic(2)) + ic(1); t = ieor(t, ic(2)) + ic(1)
            t = ieor(t, ic(2)) + ic(1); t = ieor(t, ic(2)) + ic(1)
            y(l) = t
            l = l + m
        end do
    case (3)                    ! 8 x (multiply, xor); ic(1) = 3 keeps t small
        do i = 1, n, k
            t = x(l)
            t = ieor(t * ic(1), ic(2)); t = ieor(t * ic(1), ic(2))
            t = ieor(t * ic(1), ic(2)); t = ieor(t * ic(1), ic(2))
            t = ieor(t * ic(1), ic(2)); t = ieor(t * ic(1), ic(2))
            t = ieor(t * ic(1), ic(2)); t = ieor(t * ic(1), ic(2))
            y(l) = t
            l = l + m
        end do
    case (4)                    ! 8 divides
        do i = 1, n, k
            t = x(l)
            t = ic(3) / t; t = ic(3) / t; t = ic(3) / t; t = ic(3) / t
            t = ic(3) / t; t = ic(3) / t; t = ic(3) / t; t = ic(3) / t
            y(l) = t
            l = l + m
        end do
    case (6)                    ! MOD, one an element
        do i = 1, n, k
            y(l) = mod(x(l), ic(4))
            l = l + m
        end do
    end select
end subroutine ck_iop

! Conversions: 8 x (INTEGER to REAL(8), multiply by c = 1, back to INTEGER).
subroutine ck_cvt(n, k, m, x, y, c) bind(c, name='ck_cvt')
    use, intrinsic :: iso_c_binding
    implicit none
    integer(c_int), value :: n, k, m
    integer(c_int), intent(in) :: x(*)
    integer(c_int), intent(inout) :: y(*)
    real(c_double), intent(in) :: c(*)
    integer :: i, l, t
    l = 1
    do i = 1, n, k
        t = x(l)
        t = int(dble(t) * c(1)); t = int(dble(t) * c(1)); t = int(dble(t) * c(1))
        t = int(dble(t) * c(1)); t = int(dble(t) * c(1)); t = int(dble(t) * c(1))
        t = int(dble(t) * c(1)); t = int(dble(t) * c(1))
        y(l) = t
        l = l + m
    end do
end subroutine ck_cvt

! Loop entry: nout times the base copy loop over nin elements (x and y of
! nin*m + 8 at least); the time against nin gives the cost of entering a
! loop.
subroutine ck_nest(nout, nin, k, m, x, y) bind(c, name='ck_nest')
    use, intrinsic :: iso_c_binding
    implicit none
    integer(c_int), value :: nout, nin, k, m
    real(c_double), intent(in) :: x(*)
    real(c_double), intent(inout) :: y(*)
    integer :: i, j, l
    do j = 1, nout
        l = 1 + iand(j, 7)          ! not quite the same loop each time
        do i = 1, nin, k
            y(l) = x(l)
            l = l + m
        end do
    end do
end subroutine ck_nest

! Calls of external subroutines (calib_callee.f90, a separate file, so not
! inlined) with 0, 4 and 8 arguments, by reference as Fortran passes them;
! op 1: an array of 128 REAL(8) allocated, passed to one (so that the
! compiler cannot drop the allocation) and freed, as hpfc's temporaries.
subroutine ck_call(op, n, k, m, x, y) bind(c, name='ck_call')
    use, intrinsic :: iso_c_binding
    implicit none
    integer(c_int), value :: op, n, k, m
    real(c_double), intent(in) :: x(*)
    real(c_double), intent(inout) :: y(*)
    external :: ck_callee0, ck_callee1, ck_callee4, ck_callee8
    integer :: i, l, a1, a2, a3, a4
    real(c_double) :: b1, b2, b3, b4
    real(c_double), allocatable :: t(:)
    a1 = 1; a2 = 2; a3 = 3; a4 = 4
    b1 = 1; b2 = 2; b3 = 3; b4 = 4
    l = 1
    select case (op)
    case (0)
        do i = 1, n, k
            y(l) = x(l)
            call ck_callee0()
            l = l + m
        end do
    case (1)
        do i = 1, n, k
            y(l) = x(l)
            allocate(t(128))
            call ck_callee1(t)
            deallocate(t)
            l = l + m
        end do
    case (4)
        do i = 1, n, k
            y(l) = x(l)
            call ck_callee4(a1, a2, b1, b2)
            l = l + m
        end do
    case (8)
        do i = 1, n, k
            y(l) = x(l)
            call ck_callee8(a1, a2, a3, a4, b1, b2, b3, b4)
            l = l + m
        end do
    end select
end subroutine ck_call

! The run-time library's owner tests as the generated code calls them
! (implicit interfaces, arguments by reference). ha: an array descriptor
! from ck_rt_setup; the indices 1..n lie in this process's block.
subroutine ck_rt(op, n, k, m, ha, x, y) bind(c, name='ck_rt')
    use, intrinsic :: iso_c_binding
    implicit none
    integer(c_int), value :: op, n, k, m
    integer(c_int), intent(in) :: ha
    integer(c_int), intent(in) :: x(*)
    integer(c_int), intent(inout) :: y(*)
    integer, external :: hpfrt_mine, hpfrt_g2l, hpfrt_present
    integer :: i, l
    l = 1
    select case (op)
    case (1)
        do i = 1, n, k
            y(l) = x(l) + hpfrt_mine(ha, 1, i)
            l = l + m
        end do
    case (2)
        do i = 1, n, k
            y(l) = x(l) + hpfrt_g2l(ha, 1, i)
            l = l + m
        end do
    case (3)
        do i = 1, n, k
            y(l) = x(l) + hpfrt_present(ha)
            l = l + m
        end do
    end select
end subroutine ck_rt

! A distributed array of nglob elements, (BLOCK) over all processes, with
! ghost ghost cells each side, set up as the generated code does (local
! calls: no communication); with ncol > 0 a (BLOCK,*) array of nglob x
! ncol, whose overlap shift moves rows of ncol elements, each ncol apart in
! storage, as a 2-D stencil's.
subroutine ck_rt_setup2(nglob, ncol, ghost, ha) bind(c, name='ck_rt_setup2')
    use, intrinsic :: iso_c_binding
    implicit none
    integer(c_int), value :: nglob, ncol, ghost
    integer(c_int), intent(out) :: ha
    integer :: hp, ht, r
    r = merge(2, 1, ncol > 0)
    call hpfrt_procs_new(hp, 1, 'p')
    call hpfrt_procs_dim(hp, 1, 0)
    call hpfrt_procs_commit(hp)
    call hpfrt_tmpl_new(ht, r, 't')
    call hpfrt_tmpl_dim(ht, 1, 1, nglob, 1, 0)
    if (ncol > 0) call hpfrt_tmpl_dim(ht, 2, 1, ncol, 0, 0)
    call hpfrt_tmpl_commit(ht, hp)
    call hpfrt_arr_new(ha, ht, r, 8, 'a')
    call hpfrt_arr_dim(ha, 1, 1, nglob, 1, 1, 0, ghost, ghost)
    if (ncol > 0) call hpfrt_arr_dim(ha, 2, 1, ncol, 0, 1, 0, 0, 0)
    call hpfrt_arr_commit(ha)
end subroutine ck_rt_setup2

! Vectorized loops: hpfc's loop over an array dimension that is not
! distributed has compile-time constant bounds and unit step, inside the
! loop of the distributed dimension (doc/spmd.md):
!     do j = f, e, k                  ! distributed: run-time step
!       do i = 0, NI - 1              ! constant bounds
!         y(1 + i, l) = x(1 + i, l)
!       end do
!       l = l + m
!     end do
! GCC at -O2 vectorizes such an inner loop (its trip count a known multiple
! of the vector length: no remainder loop) or makes a copy of it a memcpy,
! which it does not do for the run-time steps of ck_dop. op as ck_dop's
! 0..3: the copy, 8 dependent adds, multiplies, divides an element; x and y
! hold ncol columns of NI = 64 doubles.
subroutine ck_vec(op, ncol, k, m, x, y, c) bind(c, name='ck_vec')
    use, intrinsic :: iso_c_binding
    implicit none
    integer, parameter :: ni = 64
    integer(c_int), value :: op, ncol, k, m
    real(c_double), intent(in) :: x(ni, *), c(*)
    real(c_double), intent(inout) :: y(ni, *)
    integer :: i, j, l
    real(c_double) :: t
    l = 1
    select case (op)
    case (0)
        do j = 1, ncol, k
            do i = 0, ni - 1
                y(1 + i, l) = x(1 + i, l)
            end do
            l = l + m
        end do
    case (1)
        do j = 1, ncol, k
            do i = 0, ni - 1
                t = x(1 + i, l)
                t = t + c(1); t = t + c(1); t = t + c(1); t = t + c(1)
                t = t + c(1); t = t + c(1); t = t + c(1); t = t + c(1)
                y(1 + i, l) = t
            end do
            l = l + m
        end do
    case (2)
        do j = 1, ncol, k
            do i = 0, ni - 1
                t = x(1 + i, l)
                t = t * c(2); t = t * c(2); t = t * c(2); t = t * c(2)
                t = t * c(2); t = t * c(2); t = t * c(2); t = t * c(2)
                y(1 + i, l) = t
            end do
            l = l + m
        end do
    case (3)
        do j = 1, ncol, k
            do i = 0, ni - 1
                t = x(1 + i, l)
                t = t / c(2); t = t / c(2); t = t / c(2); t = t / c(2)
                t = t / c(2); t = t / c(2); t = t / c(2); t = t / c(2)
                y(1 + i, l) = t
            end do
            l = l + m
        end do
    case (4)                    ! one more load: y = x + y
        do j = 1, ncol, k
            do i = 0, ni - 1
                y(1 + i, l) = x(1 + i, l) + y(1 + i, l)
            end do
            l = l + m
        end do
    case (5)                    ! one more store: ck_vec_store
        call ck_vec_store(ncol, k, m, x, y, c)
    case (6)                    ! the base of a vector loop: a load, an add, a store
        do j = 1, ncol, k
            do i = 0, ni - 1
                y(1 + i, l) = x(1 + i, l) + c(1)
            end do
            l = l + m
        end do
    ! library functions in the vectorized loop, op as ck_dop's: GCC calls
    ! the vector variants of the C library's (glibc's libmvec, which
    ! gfortran's math-vector-fortran.h declares), or none, and then the
    ! loop stays scalar
    case (10)
        do j = 1, ncol, k
            do i = 0, ni - 1
                y(1 + i, l) = sqrt(x(1 + i, l))
            end do
            l = l + m
        end do
    case (11)
        do j = 1, ncol, k
            do i = 0, ni - 1
                y(1 + i, l) = exp(x(1 + i, l))
            end do
            l = l + m
        end do
    case (12)
        do j = 1, ncol, k
            do i = 0, ni - 1
                y(1 + i, l) = log(x(1 + i, l))
            end do
            l = l + m
        end do
    case (13)
        do j = 1, ncol, k
            do i = 0, ni - 1
                y(1 + i, l) = log10(x(1 + i, l))
            end do
            l = l + m
        end do
    case (14)
        do j = 1, ncol, k
            do i = 0, ni - 1
                y(1 + i, l) = sin(x(1 + i, l))
            end do
            l = l + m
        end do
    case (15)
        do j = 1, ncol, k
            do i = 0, ni - 1
                y(1 + i, l) = cos(x(1 + i, l))
            end do
            l = l + m
        end do
    case (16)
        do j = 1, ncol, k
            do i = 0, ni - 1
                y(1 + i, l) = tan(x(1 + i, l))
            end do
            l = l + m
        end do
    case (17)
        do j = 1, ncol, k
            do i = 0, ni - 1
                y(1 + i, l) = atan(x(1 + i, l))
            end do
            l = l + m
        end do
    case (18)
        do j = 1, ncol, k
            do i = 0, ni - 1
                y(1 + i, l) = atan2(x(1 + i, l), c(4))
            end do
            l = l + m
        end do
    case (19)
        do j = 1, ncol, k
            do i = 0, ni - 1
                y(1 + i, l) = asin(x(1 + i, l))
            end do
            l = l + m
        end do
    case (20)
        do j = 1, ncol, k
            do i = 0, ni - 1
                y(1 + i, l) = acos(x(1 + i, l))
            end do
            l = l + m
        end do
    case (21)
        do j = 1, ncol, k
            do i = 0, ni - 1
                y(1 + i, l) = sinh(x(1 + i, l))
            end do
            l = l + m
        end do
    case (22)
        do j = 1, ncol, k
            do i = 0, ni - 1
                y(1 + i, l) = cosh(x(1 + i, l))
            end do
            l = l + m
        end do
    case (23)
        do j = 1, ncol, k
            do i = 0, ni - 1
                y(1 + i, l) = tanh(x(1 + i, l))
            end do
            l = l + m
        end do
    case (24)
        do j = 1, ncol, k
            do i = 0, ni - 1
                y(1 + i, l) = x(1 + i, l) ** c(5)
            end do
            l = l + m
        end do
    end select
end subroutine ck_vec

! ck_vec's base with one more store, into a second column of y that the
! compiler can tell apart from the first (y(l) and y(l + ncol) might be the
! same element as far as it knows, and the loop would not be vectorized).
subroutine ck_vec_store(ncol, k, m, x, y, c)
    use, intrinsic :: iso_c_binding
    implicit none
    integer, parameter :: ni = 64
    integer(c_int), intent(in) :: ncol, k, m
    real(c_double), intent(in) :: x(ni, *), c(*)
    real(c_double), intent(inout) :: y(ni, 2, *)
    integer :: i, j, l
    l = 1
    do j = 1, ncol, k
        do i = 0, ni - 1
            y(1 + i, 1, l) = x(1 + i, l) + c(1)
            y(1 + i, 2, l) = x(1 + i, l) + c(1)
        end do
        l = l + m
    end do
end subroutine ck_vec_store

! The run-time calls of every FORALL of the generated code, reps times:
! op 0, the base: the loop over this process's block of a (BLOCK) array of
! nglob elements (ha from ck_rt_setup), its bounds looked up once; op 1:
! the same inside a region's timers, as every statement hpfc lowers is;
! op 2: the loop's local iteration set looked up on each entry (the table
! cached after the first call) and walked segment by segment.
subroutine ck_forall(op, reps, ha, nglob, x, y) bind(c, name='ck_forall')
    use, intrinsic :: iso_c_binding
    implicit none
    integer(c_int), value :: op, reps, nglob
    integer(c_int), intent(in) :: ha
    real(c_double), intent(in) :: x(*)
    real(c_double), intent(inout) :: y(*)
    integer, external :: hpfrt_nseg
    integer :: r, s, i, h, f, e, k, l, m, f0, e0, k0, l0, m0
    call hpfrt_loop(h, ha, 1, 1, 0, 1, nglob, 1)
    call hpfrt_seg(h, 1, f0, e0, k0, l0, m0)
    select case (op)
    case (0)
        do r = 1, reps
            l = l0
            do i = f0, e0, k0
                y(l) = x(l)
                l = l + m0
            end do
        end do
    case (1)
        do r = 1, reps
            call hpfrt_region_begin(1)
            l = l0
            do i = f0, e0, k0
                y(l) = x(l)
                l = l + m0
            end do
            call hpfrt_region_end(1)
        end do
    case (2)
        do r = 1, reps
            call hpfrt_loop(h, ha, 1, 1, 0, 1, nglob, 1)
            do s = 1, hpfrt_nseg(h)
                call hpfrt_seg(h, s, f, e, k, l, m)
                do i = f, e, k
                    y(l) = x(l)
                    l = l + m
                end do
            end do
        end do
    case (3)                    ! the segments alone, as an inner distributed level
        do r = 1, reps          ! gets them at every entry
            do s = 1, hpfrt_nseg(h)
                call hpfrt_seg(h, s, f, e, k, l, m)
                do i = f, e, k
                    y(l) = x(l)
                    l = l + m
                end do
            end do
        end do
    case (4)                    ! a whole FORALL as hpfc emits it: 2 in its region
        do r = 1, reps
            call hpfrt_region_begin(1)
            call hpfrt_loop(h, ha, 1, 1, 0, 1, nglob, 1)
            do s = 1, hpfrt_nseg(h)
                call hpfrt_seg(h, s, f, e, k, l, m)
                do i = f, e, k
                    y(l) = x(l)
                    l = l + m
                end do
            end do
            call hpfrt_region_end(1)
        end do
    end select
end subroutine ck_forall

! Memory: reads with eight partial sums (one would time the adder's
! latency, not the memory; eight keep the loads the limit) and writes of a
! constant, every m-th element; n a multiple of 8.
subroutine ck_read(n, m, x, s) bind(c, name='ck_read')
    use, intrinsic :: iso_c_binding
    implicit none
    integer(c_int), value :: n, m
    real(c_double), intent(in) :: x(*)
    real(c_double), intent(out) :: s
    integer :: i, l
    real(c_double) :: s1, s2, s3, s4, s5, s6, s7, s8
    s1 = 0; s2 = 0; s3 = 0; s4 = 0; s5 = 0; s6 = 0; s7 = 0; s8 = 0
    l = 1
    do i = 1, n / 8
        s1 = s1 + x(l)
        s2 = s2 + x(l + m)
        s3 = s3 + x(l + 2*m)
        s4 = s4 + x(l + 3*m)
        s5 = s5 + x(l + 4*m)
        s6 = s6 + x(l + 5*m)
        s7 = s7 + x(l + 6*m)
        s8 = s8 + x(l + 7*m)
        l = l + 8*m
    end do
    s = ((s1 + s2) + (s3 + s4)) + ((s5 + s6) + (s7 + s8))
end subroutine ck_read

subroutine ck_write(n, m, y, c) bind(c, name='ck_write')
    use, intrinsic :: iso_c_binding
    implicit none
    integer(c_int), value :: n, m
    real(c_double), intent(inout) :: y(*)
    real(c_double), value :: c
    integer :: i, l
    l = 1
    do i = 1, n
        y(l) = c
        l = l + m
    end do
end subroutine ck_write

! The bandwidths: the same streams with the shape of hpfc's loops over a
! dimension that is not distributed (constant bounds, unit step), which
! GCC vectorizes: the most a loop of the generated code gets from a level.
! Maxima vectorize (a sum would not: no reassociation in FP).
subroutine ck_readv(ncol, x, s) bind(c, name='ck_readv')
    use, intrinsic :: iso_c_binding
    implicit none
    integer, parameter :: ni = 64
    integer(c_int), value :: ncol
    real(c_double), intent(in) :: x(ni, *)
    real(c_double), intent(out) :: s
    integer :: i, j
    real(c_double) :: a1, a2, a3, a4, a5, a6, a7, a8
    ! eight maxima, so that the loads, not one accumulator's latency, set
    ! the pace
    a1 = -huge(s); a2 = a1; a3 = a1; a4 = a1; a5 = a1; a6 = a1; a7 = a1; a8 = a1
    do j = 1, ncol
        do i = 1, ni, 8
            a1 = max(a1, x(i, j)); a2 = max(a2, x(i + 1, j))
            a3 = max(a3, x(i + 2, j)); a4 = max(a4, x(i + 3, j))
            a5 = max(a5, x(i + 4, j)); a6 = max(a6, x(i + 5, j))
            a7 = max(a7, x(i + 6, j)); a8 = max(a8, x(i + 7, j))
        end do
    end do
    s = max(a1, a2, a3, a4, a5, a6, a7, a8)
end subroutine ck_readv

subroutine ck_writev(ncol, y, c) bind(c, name='ck_writev')
    use, intrinsic :: iso_c_binding
    implicit none
    integer, parameter :: ni = 64
    integer(c_int), value :: ncol
    real(c_double), intent(inout) :: y(ni, *)
    real(c_double), value :: c
    integer :: i, j
    do j = 1, ncol
        do i = 1, ni
            y(i, j) = c + i
        end do
    end do
end subroutine ck_writev

! The clock: a loop-carried chain of 64-bit integer multiplies by k, which
! the caller gives as 1 from a volatile variable, so that the compiler
! cannot know it and the value cannot overflow; one iteration takes the
! multiply's latency, 3 cycles on the x86-64 processors of the last
! fifteen years (Intel since Core 2, AMD since Zen), whatever the values.
! (An add and an xor, the chain used before, run in one cycle, not two, on
! processors that execute the add of a constant at renaming, such as
! Intel's since Golden Cove.)
subroutine ck_clock(n, k, t) bind(c, name='ck_clock')
    use, intrinsic :: iso_c_binding
    implicit none
    integer(c_int), value :: n, k
    integer(c_int), intent(inout) :: t
    integer :: i
    integer(c_long_long) :: s, f
    f = int(k, c_long_long)
    s = int(t, c_long_long)
    do i = 1, n
        s = s * f
    end do
    t = int(iand(s, int(huge(t), c_long_long)), c_int)
end subroutine ck_clock

! The compiler that built the kernels, for the header of the .sag file.
subroutine ck_compiler(buf, len) bind(c, name='ck_compiler')
    use, intrinsic :: iso_c_binding
    use, intrinsic :: iso_fortran_env, only: compiler_version
    implicit none
    integer(c_int), value :: len
    character(kind=c_char), intent(out) :: buf(len)
    character(len=*), parameter :: v = compiler_version()
    integer :: i, n
    n = min(len - 1, len_trim(v))
    do i = 1, n
        buf(i) = v(i:i)
    end do
    buf(n + 1) = c_null_char
end subroutine ck_compiler

! A formatted WRITE like a program's result line (PRINT '(a,es22.14)'), to
! a unit open on /dev/null or /dev/zero: ck_fmt_open connects it (the run
! time's I/O is set up at the first OPEN or WRITE of a process),
! ck_fmt_write writes the line `reps` times.
subroutine ck_fmt_open(u, which) bind(c, name='ck_fmt_open')
    use, intrinsic :: iso_c_binding
    implicit none
    integer(c_int), intent(out) :: u
    integer(c_int), value :: which
    integer :: v
    ! a file is connected to one unit at a time: two devices that discard
    if (which == 0) then
        open(newunit=v, file='/dev/null', action='write', status='old')
    else
        open(newunit=v, file='/dev/zero', action='write', status='old')
    end if
    u = v
end subroutine ck_fmt_open

subroutine ck_fmt_write(u, reps, x) bind(c, name='ck_fmt_write')
    use, intrinsic :: iso_c_binding
    implicit none
    integer(c_int), value :: u, reps
    real(c_double), value :: x
    integer :: r
    do r = 1, reps
        write(u, '(a,es22.14)') 'checksum ', x + r
    end do
end subroutine ck_fmt_write
