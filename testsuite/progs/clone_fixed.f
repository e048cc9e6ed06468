C     TEST: FIXED FORM F77-STYLE CODE. A SUBROUTINE AND A FUNCTION WITH
C     EXPLICIT-SHAPE 2-D DUMMIES AND NO MAPPING DIRECTIVES, EACH CALLED
C     WITH A (BLOCK,*) ACTUAL AND A (*,BLOCK) ACTUAL.
      PROGRAM CLNFIX
      INTEGER N, NITER
      PARAMETER (N = 64, NITER = 5)
      REAL*8 A(64,64), B(64,64)
      REAL*8 RNORM
      EXTERNAL RNORM
      REAL*8 RA, RB
      INTEGER I, J, IT
CHPF$ PROCESSORS P(4)
CHPF$ DISTRIBUTE A(BLOCK,*) ONTO P
CHPF$ DISTRIBUTE B(*,BLOCK) ONTO P
C
C     INITIAL FIELD: ZERO INTERIOR, INTEGER BOUNDARY VALUES
C
      DO 20 J = 1, N
         DO 10 I = 1, N
            A(I,J) = 0.0D0
            B(I,J) = 0.0D0
   10    CONTINUE
   20 CONTINUE
      DO 30 I = 1, N
         A(I,1) = DBLE(MOD(I,9))
         A(I,N) = 4.0D0
         A(1,I) = 8.0D0
         A(N,I) = DBLE(MOD(I,5))
         B(I,1) = DBLE(MOD(I,9))
         B(I,N) = 4.0D0
         B(1,I) = 8.0D0
         B(N,I) = DBLE(MOD(I,5))
   30 CONTINUE
C
      DO 40 IT = 1, NITER
         CALL RELAX(A, N)
         CALL RELAX(B, N)
   40 CONTINUE
C
      RA = RNORM(A, N)
      RB = RNORM(B, N)
      WRITE(*,'(A,F14.4)') ' NORM OF A ', RA
      WRITE(*,'(A,F14.4)') ' NORM OF B ', RB
      WRITE(*,'(A,F14.4)') ' A(2,2)    ', A(2,2)
      WRITE(*,'(A,F14.4)') ' B(N-1,2)  ', B(N-1,2)
      PRINT *, 'SAME RESULT: ', RA .EQ. RB
      END
C
C     ONE JACOBI SWEEP OVER THE INTERIOR, USING A LOCAL TEMPORARY
C
      SUBROUTINE RELAX(U, N)
      INTEGER N
      REAL*8 U(N,N)
      REAL*8 T(N,N)
      INTEGER I, J
CHPF$ INDEPENDENT, NEW(I)
      DO 20 J = 2, N-1
         DO 10 I = 2, N-1
            T(I,J) = 0.25D0*(U(I-1,J) + U(I+1,J)
     &                     + U(I,J-1) + U(I,J+1))
   10    CONTINUE
   20 CONTINUE
      DO 40 J = 2, N-1
         DO 30 I = 2, N-1
            U(I,J) = T(I,J)
   30    CONTINUE
   40 CONTINUE
      RETURN
      END
C
C     SUM OF SQUARES OF ALL ELEMENTS
C
      REAL*8 FUNCTION RNORM(U, N)
      INTEGER N
      REAL*8 U(N,N)
      REAL*8 S
      INTEGER I, J
      S = 0.0D0
      DO 20 J = 1, N
         DO 10 I = 1, N
            S = S + U(I,J)*U(I,J)
   10    CONTINUE
   20 CONTINUE
      RNORM = S
      RETURN
      END
