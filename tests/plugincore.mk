# tests/: plugin core unit tests
check_PROGRAMS += tests/check_state
tests_check_state_SOURCES = tests/check_state.c tests/tw_check.h
tests_check_state_CFLAGS = $(TESTS_CFLAGS)
tests_check_state_LDADD = $(TESTS_LDADD)
TESTS += tests/check_state

check_PROGRAMS += tests/check_range
tests_check_range_SOURCES = tests/check_range.c tests/tw_check.h
tests_check_range_CFLAGS = $(TESTS_CFLAGS)
tests_check_range_LDADD = $(TESTS_LDADD)
TESTS += tests/check_range

check_PROGRAMS += tests/check_perfdata
tests_check_perfdata_SOURCES = tests/check_perfdata.c tests/tw_check.h
tests_check_perfdata_CFLAGS = $(TESTS_CFLAGS)
tests_check_perfdata_LDADD = $(TESTS_LDADD)
TESTS += tests/check_perfdata

check_PROGRAMS += tests/check_output
tests_check_output_SOURCES = tests/check_output.c tests/tw_check.h
tests_check_output_CFLAGS = $(TESTS_CFLAGS)
tests_check_output_LDADD = $(TESTS_LDADD)
TESTS += tests/check_output

check_PROGRAMS += tests/check_extraopts
tests_check_extraopts_SOURCES = tests/check_extraopts.c tests/tw_check.h
tests_check_extraopts_CFLAGS = $(TESTS_CFLAGS)
tests_check_extraopts_LDADD = $(TESTS_LDADD)
TESTS += tests/check_extraopts

check_PROGRAMS += tests/check_ini
tests_check_ini_SOURCES = tests/check_ini.c tests/tw_check.h
tests_check_ini_CFLAGS = $(TESTS_CFLAGS)
tests_check_ini_LDADD = $(TESTS_LDADD)
TESTS += tests/check_ini

check_PROGRAMS += tests/check_advice
tests_check_advice_SOURCES = tests/check_advice.c tests/tw_advice_fake.h tests/tw_check.h
tests_check_advice_CFLAGS = $(TESTS_CFLAGS)
tests_check_advice_LDADD = $(TESTS_LDADD)
TESTS += tests/check_advice

check_PROGRAMS += tests/check_advice_values
tests_check_advice_values_SOURCES = tests/check_advice_values.c tests/tw_advice_fake.h \
	tests/tw_check.h
tests_check_advice_values_CFLAGS = $(TESTS_CFLAGS)
tests_check_advice_values_LDADD = $(TESTS_LDADD)
TESTS += tests/check_advice_values

# Tuning tickets (lib/advice/ticket*.c): finding ids, apply and persist lines.
check_PROGRAMS += tests/check_ticket
tests_check_ticket_SOURCES = tests/check_ticket.c tests/tw_check.h
tests_check_ticket_CFLAGS = $(TESTS_CFLAGS)
tests_check_ticket_LDADD = $(TESTS_LDADD)
TESTS += tests/check_ticket

check_PROGRAMS += tests/check_ticket_lines
tests_check_ticket_lines_SOURCES = tests/check_ticket_lines.c tests/tw_check.h
tests_check_ticket_lines_CFLAGS = $(TESTS_CFLAGS)
tests_check_ticket_lines_LDADD = $(TESTS_LDADD)
TESTS += tests/check_ticket_lines

# The bounded string writer (lib/util/) that perfdata and advice write with.
check_PROGRAMS += tests/check_strwriter
tests_check_strwriter_SOURCES = tests/check_strwriter.c tests/tw_check.h
tests_check_strwriter_CFLAGS = $(TESTS_CFLAGS)
tests_check_strwriter_LDADD = $(TESTS_LDADD)
TESTS += tests/check_strwriter

check_PROGRAMS += tests/check_ratelimit
tests_check_ratelimit_SOURCES = tests/check_ratelimit.c tests/tw_check.h
tests_check_ratelimit_CFLAGS = $(TESTS_CFLAGS)
tests_check_ratelimit_LDADD = $(TESTS_LDADD)
TESTS += tests/check_ratelimit

check_PROGRAMS += tests/check_sendq
tests_check_sendq_SOURCES = tests/check_sendq.c tests/tw_check.h
tests_check_sendq_CFLAGS = $(TESTS_CFLAGS)
tests_check_sendq_LDADD = $(TESTS_LDADD)
TESTS += tests/check_sendq

check_PROGRAMS += tests/check_evidence
tests_check_evidence_SOURCES = tests/check_evidence.c tests/tw_evidence.h tests/tw_check.h
tests_check_evidence_CFLAGS = $(TESTS_CFLAGS)
tests_check_evidence_LDADD = $(TESTS_LDADD)
TESTS += tests/check_evidence

check_PROGRAMS += tests/check_evidence_disk
tests_check_evidence_disk_SOURCES = tests/check_evidence_disk.c tests/tw_evidence.h \
	tests/tw_check.h
tests_check_evidence_disk_CFLAGS = $(TESTS_CFLAGS)
tests_check_evidence_disk_LDADD = $(TESTS_LDADD)
TESTS += tests/check_evidence_disk

check_PROGRAMS += tests/check_evidence_socket
tests_check_evidence_socket_SOURCES = tests/check_evidence_socket.c tests/tw_check.h
tests_check_evidence_socket_CFLAGS = $(TESTS_CFLAGS)
tests_check_evidence_socket_LDADD = $(TESTS_LDADD)
TESTS += tests/check_evidence_socket

check_PROGRAMS += tests/check_advice_cgroup
tests_check_advice_cgroup_SOURCES = tests/check_advice_cgroup.c tests/tw_check.h
tests_check_advice_cgroup_CFLAGS = $(TESTS_CFLAGS)
tests_check_advice_cgroup_LDADD = $(TESTS_LDADD)
TESTS += tests/check_advice_cgroup

check_PROGRAMS += tests/check_escape
tests_check_escape_SOURCES = tests/check_escape.c tests/tw_check.h
tests_check_escape_CFLAGS = $(TESTS_CFLAGS)
tests_check_escape_LDADD = $(TESTS_LDADD)
TESTS += tests/check_escape
