! calib_callee.f90 - the subroutines that hpfcalibrate's call kernels call
! (ck_call in calib_kernels.f90). A file of their own: without link-time
! optimization the compiler cannot inline them into the caller, as it
! cannot inline a generated program's calls of its own subroutines compiled
! apart. Their bodies are empty: the kernels time the call itself.
subroutine ck_callee0()
end subroutine ck_callee0

subroutine ck_callee1(t)
    double precision :: t(*)
end subroutine ck_callee1

subroutine ck_callee4(a1, a2, b1, b2)
    integer :: a1, a2
    double precision :: b1, b2
end subroutine ck_callee4

subroutine ck_callee8(a1, a2, a3, a4, b1, b2, b3, b4)
    integer :: a1, a2, a3, a4
    double precision :: b1, b2, b3, b4
end subroutine ck_callee8
