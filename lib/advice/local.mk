# SPDX-License-Identifier: ISC
# lib/advice/: symptom -> tunable rules, and the engine that applies them.
noinst_LIBRARIES += lib/advice/libtwadvice.a
lib_advice_libtwadvice_a_SOURCES = \
	lib/advice/advice.h lib/advice/advice.c lib/advice/format.c \
	lib/advice/value.h lib/advice/value.c \
	lib/advice/rules.c lib/advice/rules_actions.h lib/advice/symptom.c \
	lib/advice/evidence.h lib/advice/evidence.c lib/advice/evidence_disk.c \
	lib/advice/evidence_probe.c \
	lib/advice/verdict.h lib/advice/verdict.c \
	lib/advice/ticket.h lib/advice/ticket.c lib/advice/ticket_lines.c lib/advice/ticket_unit.c \
	lib/advice/ticket_cgfile.c \
	lib/advice/sockevidence.c lib/advice/shortfall.h lib/advice/shortfall.c \
	lib/advice/advice_cgroup.h lib/advice/advice_cgroup.c \
	lib/advice/poolwords.h lib/advice/poolwords.c \
	lib/advice/proof.h lib/advice/proof.c
