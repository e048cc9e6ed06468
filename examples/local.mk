EXTRA_DIST += examples/README.md \
	examples/lfk1.f90 \
	examples/lfk2.f90 \
	examples/lfk3.f90 \
	examples/lfk9.f90 \
	examples/lfk14.f90 \
	examples/lfk22.f90 \
	examples/pbs1.f90 \
	examples/pbs2.f90 \
	examples/pbs3.f90 \
	examples/pbs4.f90 \
	examples/pi.f90 \
	examples/nbody.f90 \
	examples/finance.f90 \
	examples/laplace_bb.f90 \
	examples/laplace_bs.f90 \
	examples/laplace_sb.f90 \
	examples/directives/block.f90 \
	examples/directives/cyclic.f90 \
	examples/directives/cyclic_k.f90 \
	examples/directives/block_k.f90 \
	examples/directives/collapsed.f90 \
	examples/directives/align_offset.f90 \
	examples/directives/replicated.f90 \
	examples/directives/attributed.f90 \
	examples/directives/independent.f90 \
	examples/directives/where_forall.f90 \
	examples/directives/fixed.f
