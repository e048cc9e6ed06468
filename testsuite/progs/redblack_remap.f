      PROGRAM REDBLK
C     Red-black relaxation on a 2x2 grid of processors; the template is
C     redistributed half way (block,block) -> (block,*) -> (cyclic,block)
      INTEGER N, NIT
      PARAMETER (N = 18, NIT = 4)
      REAL U(0:N+1,0:N+1), F(N,N), RES(N,N)
      LOGICAL RED(N,N)
      INTEGER I, J, IT, LOC(2)
!HPF$ PROCESSORS P(2,2)
!HPF$ TEMPLATE T(0:N+1,0:N+1)
!HPF$ DYNAMIC T
!HPF$ DISTRIBUTE T(BLOCK,BLOCK) ONTO P
!HPF$ ALIGN U(I,J) WITH T(I,J)
!HPF$ ALIGN F(I,J) WITH T(I,J)
!HPF$ ALIGN RES(I,J) WITH T(I,J)
!HPF$ ALIGN RED(I,J) WITH T(I,J)
      U = 0.0
      FORALL (I = 1:N, J = 1:N) F(I,J) = REAL(MOD(I*J, 4))
      FORALL (I = 1:N, J = 1:N) RED(I,J) = MOD(I + J, 2) .EQ. 0
      FORALL (I = 0:N+1) U(I,0) = 1.0
      FORALL (I = 0:N+1) U(I,N+1) = 2.0
      DO IT = 1, NIT
         IF (IT .EQ. 2) THEN
!HPF$       REDISTRIBUTE T(BLOCK,*)
         END IF
         IF (IT .EQ. 3) THEN
!HPF$       REDISTRIBUTE T(CYCLIC,BLOCK) ONTO P
         END IF
         FORALL (I = 1:N, J = 1:N, RED(I,J))
     &      U(I,J) = 0.25 * (U(I-1,J) + U(I+1,J) + U(I,J-1)
     &                     + U(I,J+1) - F(I,J))
         FORALL (I = 1:N, J = 1:N, .NOT. RED(I,J))
     &      U(I,J) = 0.25 * (U(I-1,J) + U(I+1,J) + U(I,J-1)
     &                     + U(I,J+1) - F(I,J))
         RES = 0.0
         WHERE (RED) RES = U(1:N,1:N) * 4.0
         WRITE (*, '(A,I3,F14.6)') 'it', IT, SUM(RES)
      END DO
      LOC = MAXLOC(U(1:N,1:N))
      WRITE (*, '(A,2I4,F12.6)') 'max u at', LOC, MAXVAL(U)
      WRITE (*, '(A,F12.6)') 'min u ', MINVAL(U(1:N,1:N))
      WRITE (*, '(6F10.5)') (U(I,I), I = 1, N)
      END
