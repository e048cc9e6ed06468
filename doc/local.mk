## doc/local.mk - manual pages and documents.
dist_man_MANS += doc/hpfc.1 doc/hpfpredict.1
dist_man_MANS += doc/hpfcalibrate.1
dist_doc_DATA += doc/hpf-subset.md doc/fuzzing.md doc/dependencies.md doc/frontend.md \
	doc/spmd.md doc/spmd-bench.md doc/predict.md doc/predict-bench.md doc/outputs.md doc/traces.md \
	doc/experiments.md doc/where.md doc/limits.md doc/goldens.md doc/forecasting.md doc/probes.md
EXTRA_DIST += doc/README.md $(wildcard $(srcdir)/doc/validation/*.csv) \
	$(wildcard $(srcdir)/doc/validation/*.svg) $(wildcard $(srcdir)/doc/images/*.png)
