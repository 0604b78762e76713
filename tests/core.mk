# tests/: counter, track, window, pools and view
check_PROGRAMS += tests/check_window
tests_check_window_SOURCES = tests/check_window.c tests/tw_check.h tests/tw_sample_fixture.h
tests_check_window_CFLAGS = $(TESTS_CFLAGS)
tests_check_window_LDADD = $(TESTS_LDADD)
TESTS += tests/check_window

check_PROGRAMS += tests/check_view
tests_check_view_SOURCES = tests/check_view.c tests/tw_check.h tests/tw_sample_fixture.h
tests_check_view_CFLAGS = $(TESTS_CFLAGS)
tests_check_view_LDADD = $(TESTS_LDADD)
TESTS += tests/check_view
