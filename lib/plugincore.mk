# lib/: plugin core (ranges, perfdata, extra-opts, advice)
lib_libtunewatch_a_SOURCES += \
	lib/state.h lib/state.c \
	lib/range.h lib/range.c \
	lib/perfdata.h lib/perfdata.c \
	lib/extraopts.h lib/extraopts.c
lib_libtunewatch_a_SOURCES += \
	lib/advice.h lib/advice.c lib/advice_rules.c \
	lib/advice_evidence.h lib/advice_evidence.c
