## doc/local.mk
