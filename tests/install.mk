# SPDX-License-Identifier: ISC
# tests/: make install into a DESTDIR, the installed programs against a real
# snmpd, and the installed MIB found by snmptranslate. The tests learn where
# each part belongs from this build's configured directories.
AM_TESTS_ENVIRONMENT += \
	MAKE='$(MAKE)'; export MAKE; \
	TW_DIR_sbindir='$(sbindir)'; export TW_DIR_sbindir; \
	TW_DIR_plugindir='$(plugindir)'; export TW_DIR_plugindir; \
	TW_DIR_mibdir='$(mibdir)'; export TW_DIR_mibdir; \
	TW_DIR_systemdsystemunitdir='$(systemdsystemunitdir)'; export TW_DIR_systemdsystemunitdir; \
	TW_DIR_sysconfdir='$(sysconfdir)'; export TW_DIR_sysconfdir; \
	TW_DIR_pkgdatadir='$(pkgdatadir)'; export TW_DIR_pkgdatadir; \
	TW_DIR_docdir='$(docdir)'; export TW_DIR_docdir; \
	TW_DIR_mandir='$(mandir)'; export TW_DIR_mandir;

EXTRA_DIST += tests/integration/twinstall.py

INSTALL_TESTS = \
	tests/integration/install_layout.py \
	tests/integration/install_mib.py

dist_noinst_SCRIPTS += $(INSTALL_TESTS)
TESTS += $(INSTALL_TESTS)
