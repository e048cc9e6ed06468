## runtime/local.mk
EXTRA_DIST += runtime/README.md
