# lib/sample/: one snapshot of every collector, the sampler that takes it,
# and the message-buffer pools derived from it.
lib_libtunewatch_a_SOURCES += \
	lib/sample/sample.h lib/sample/sample.c \
	lib/sample/sampler.h lib/sample/sampler.c \
	lib/sample/pools.h lib/sample/pools.c
