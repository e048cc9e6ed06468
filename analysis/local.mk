## analysis/local.mk
EXTRA_DIST += analysis/README.md
