# lib/: samples, the window and the view (what the MIB publishes).
lib_libtunewatch_a_SOURCES += \
	lib/array.h lib/array.c \
	lib/counter.h lib/counter.c \
	lib/track.h lib/track.c \
	lib/devfilter.h lib/devfilter.c \
	lib/sample.h lib/sample.c \
	lib/sampler.h lib/sampler.c \
	lib/pools.h lib/pools.c \
	lib/window.h lib/window.c \
	lib/view.h lib/view.c \
	lib/monitor.h lib/monitor.c
