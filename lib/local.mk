# SPDX-License-Identifier: ISC
# lib/: the core, with no Net-SNMP in it, in one folder per stage of the
# data flow: util -> collect -> sample -> window -> view -> monitor, and
# plugin and advice for the checks. Each folder lists its files.
noinst_LIBRARIES += lib/libtunewatch.a
lib_libtunewatch_a_SOURCES =

include lib/util/local.mk
include lib/collect/local.mk
include lib/sample/local.mk
include lib/window/local.mk
include lib/sockets/local.mk
include lib/figures/local.mk
include lib/view/local.mk
include lib/monitor/local.mk
include lib/change/local.mk
include lib/probe/local.mk
include lib/reqlat/local.mk
include lib/plugin/local.mk
include lib/advice/local.mk
include lib/finding/local.mk
