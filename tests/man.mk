# SPDX-License-Identifier: ISC
# tests/: the manual pages: clean under mandoc -Tlint, and every option that
# a program's --help prints is in its page, and the other way round.
MAN_TESTS = tests/man_lint.py tests/man_options.py
dist_noinst_SCRIPTS += $(MAN_TESTS)
TESTS += $(MAN_TESTS)
