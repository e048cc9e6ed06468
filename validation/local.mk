## validation/local.mk - `make validate`: the validation suite measured on
## this machine under MPI and compared with hpfpredict's predictions (the
## paper's Table 4; doc/validation.md). Not part of `make check`
## (testsuite/validate.test checks the harness itself, on two programs).
## Variables: SAG REPS WARMUP NP_LIST QUICK FULL SIZES PROGS OUT MPIFFLAGS FORECAST,
## e.g. `make validate QUICK=1` or `make validate SAG=my.sag NP_LIST='1 2 4'`;
## PROGS is the script's PROGRAMS (a name Automake keeps for itself);
## SIZES_<name> (e.g. SIZES_pi='128 4096') pass through the environment.
EXTRA_DIST += validation/README.md validation/validate.sh validation/common.sh validation/hpfv_timer.f90 \
	validation/table.awk validation/rank.awk validation/svg.awk validation/forecast.awk
dist_doc_DATA += doc/validation.md

validate: all
	srcdir='$(srcdir)' top_builddir='$(top_builddir)' FC_REF='$(FC_REF)' \
	SAG='$(SAG)' REPS='$(REPS)' WARMUP='$(WARMUP)' NP_LIST='$(NP_LIST)' \
	QUICK='$(QUICK)' FULL='$(FULL)' SIZES='$(SIZES)' PROGRAMS='$(PROGS)' \
	OUT='$(OUT)' MPIFFLAGS='$(MPIFFLAGS)' MIN_TIME='$(MIN_TIME)' FORECAST='$(FORECAST)' \
	  $(SHELL) $(srcdir)/validation/validate.sh
.PHONY: validate

clean-local: clean-validate
clean-validate:
	-rm -rf validation/out
.PHONY: clean-validate
