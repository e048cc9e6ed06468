## interp/local.mk
EXTRA_DIST += interp/README.md
