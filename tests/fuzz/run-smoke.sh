#!/bin/sh
# Run the libFuzzer targets of tests/fuzz/ (see README.md there).
#
# As a test of `make check` (FUZZ_MODE unset): build the targets if clang
# and its libFuzzer runtime are there, then run each for about
# FUZZ_SECONDS (2) seconds on its seeds, FUZZ_JOBS (3) at a time. Skipped
# (77) without clang or libFuzzer.
#
# From `make fuzz` (FUZZ_MODE=long): run each target for FUZZ_RUNS
# executions on a fresh copy of its seeds, and print what each run did.
#
# Either way, any crash, leak, sanitizer report, broken invariant or
# timeout fails the run; the input is kept in tests/fuzz/out/artifacts/,
# with the target's log. Everything else (corpora, logs, exit codes) is in
# a directory of this run's own, removed when it ends, so that two runs in
# one build tree (make check twice, or with make fuzz) do not share files.
# Environment: top_srcdir, top_builddir (the test harness sets both),
# FUZZ_CC (clang), MAKE, FUZZ_MODE, FUZZ_RUNS, FUZZ_SECONDS, FUZZ_JOBS.

set -u

: "${top_srcdir:?top_srcdir is not set (run through make check or make fuzz)}"
: "${top_builddir:?top_builddir is not set (run through make check or make fuzz)}"
mode=${FUZZ_MODE:-smoke}
cc=${FUZZ_CC:-}
fuzzdir=$top_srcdir/tests/fuzz
bindir=$top_builddir/tests/fuzz
out=$bindir/out
runs=${FUZZ_RUNS:-10000000}

# This run's own directory; the runs of --one that xargs starts below are
# given it in FUZZ_RUNDIR and leave its removal to this, their parent.
own_dir=0
if [ -z "${FUZZ_RUNDIR:-}" ]; then
	own_dir=1
	FUZZ_RUNDIR=$(mktemp -d "${TMPDIR:-/tmp}/tw-fuzz.XXXXXX") || exit 1
	trap 'rm -rf "$FUZZ_RUNDIR"' EXIT
	trap 'exit 1' HUP INT TERM
fi
tmp=$FUZZ_RUNDIR

# Each target and the longest input it is given: a little over the largest
# real file of its kind (netstat and vmstat reach 4 KiB on a small VM).
targets="
diskstats:4096
blockqueue:256
blockident:300
meminfo:4096
vmstat:4096
pressure:1024
procio:1024
softnet:2048
sockstat:1024
netstat:4096
buddyinfo:2048
sysctl:256
range:160
ini:2048
advice:512
mibview:128
udpsock:2048
probeconf:300
cgroup:4096
cgroupowner:300
escape:1024
"

# libFuzzer's own default exit code for a finding is 77, which automake
# would read as "skipped": every failure exits 1 here.
run_one() {
	name=${1%%:*}
	maxlen=${1#*:}
	bin=$bindir/fuzz_$name
	log=$tmp/logs/$name.log
	seeds=$fuzzdir/corpus/$name
	set -- -max_len="$maxlen" -timeout=10 -error_exitcode=1 -timeout_exitcode=1 \
	    -artifact_prefix="$out/artifacts/$name-" -print_final_stats=1
	if [ -f "$fuzzdir/dict/$name.dict" ]; then
		set -- "$@" -dict="$fuzzdir/dict/$name.dict"
	fi
	if [ ! -x "$bin" ]; then
		echo "missing $bin" > "$log"
		echo 1 > "$tmp/logs/$name.rc"
		return
	fi
	if [ "$mode" = smoke ]; then
		# New inputs go to the first folder; the seeds stay as they are.
		mkdir -p "$tmp/smoke/$name"
		"$bin" "$@" -max_total_time="${FUZZ_SECONDS:-2}" "$tmp/smoke/$name" "$seeds" \
		    > "$log" 2>&1
	else
		mkdir -p "$tmp/work/$name"
		cp "$seeds"/* "$tmp/work/$name"/
		"$bin" "$@" -runs="$runs" "$tmp/work/$name" > "$log" 2>&1
	fi
	echo $? > "$tmp/logs/$name.rc"
}

if [ "${1:-}" = --one ]; then
	mkdir -p "$tmp/logs" "$out/artifacts" || exit 1
	run_one "$2"
	# Run by hand, not from xargs: the log would go with the directory.
	if [ "$own_dir" = 1 ]; then
		cat "$tmp/logs/${2%%:*}.log"
		exit "$(cat "$tmp/logs/${2%%:*}.rc")"
	fi
	exit 0
fi

skip() {
	echo "SKIP: $*"
	exit 77
}

if [ "$mode" = smoke ]; then
	# The runs are timed, not counted: three at a time on two CPUs keeps
	# the whole test near 20 s and still gives each one its 2 s.
	jobs=${FUZZ_JOBS:-3}
	[ -n "$cc" ] || skip "clang not found at configure time" \
	    "(Debian 12: apt-get install clang libclang-rt-14-dev, then re-run configure)"
	mkdir -p "$tmp/probe" || exit 1
	cat > "$tmp/probe/probe.c" <<'EOF'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { (void)data; (void)size; return 0; }
EOF
	if ! "$cc" -fsanitize=fuzzer,address,undefined -o "$tmp/probe/probe" \
	    "$tmp/probe/probe.c" > "$tmp/probe/log" 2>&1; then
		sed 's/^/  /' "$tmp/probe/log" | head -5
		skip "$cc cannot link with -fsanitize=fuzzer: the libFuzzer runtime is" \
		    "missing (Debian 12: apt-get install libclang-rt-14-dev)"
	fi
	# make check does not build these: clang may be missing there. A make
	# started from a test cannot share the outer make's job slots, so it
	# is given its own instead of a warning.
	MAKEFLAGS=$(printf '%s' "${MAKEFLAGS:-}" |
	    sed -e 's/--jobserver-[a-z]*=[^ ]*//g' -e 's/-j[0-9]*//g')
	export MAKEFLAGS
	if ! ${MAKE:-make} --no-print-directory -j2 -C "$top_builddir" fuzz-build; then
		echo "FAIL: the fuzz targets do not build"
		exit 1
	fi
else
	jobs=${FUZZ_JOBS:-1}
fi

mkdir -p "$out/artifacts" "$tmp/logs" || exit 1
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# One slot a run: xargs starts the next target as soon as one ends. The
# runs are this script again, with --one; each leaves its exit code in
# logs/<name>.rc.
export top_srcdir top_builddir FUZZ_RUNDIR
# shellcheck disable=SC2086
printf '%s\n' $targets | xargs -P "$jobs" -n 1 /bin/sh "$0" --one

status=0
printf '%-11s %10s %7s %8s %6s %6s %8s\n' target runs seconds exec/s cov ft corpus
for t in $targets; do
	name=${t%%:*}
	log=$tmp/logs/$name.log
	rc=$(cat "$tmp/logs/$name.rc" 2>/dev/null || echo 1)
	# "Done 123 runs in 4 second(s)" and "#123 DONE cov: 1 ft: 2 corp: 3/4b ..."
	done_line=$(grep '^Done [0-9]* runs in' "$log" | tail -1)
	final=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1)
	printf '%-11s %10s %7s %8s %6s %6s %8s\n' "$name" \
	    "$(echo "$done_line" | awk '{print $2}')" \
	    "$(echo "$done_line" | awk '{print $5}')" \
	    "$(grep '^stat::average_exec_per_sec:' "$log" | awk '{print $2}')" \
	    "$(echo "$final" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')" \
	    "$(echo "$final" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')" \
	    "$(echo "$final" | sed -n 's/.* corp: \([^ ]*\).*/\1/p')"
	if [ "$rc" != 0 ]; then
		# The log goes when this run's directory does: keep it by the input.
		kept=$out/artifacts/$name-${tmp##*.}.log
		cp "$log" "$kept" 2>/dev/null || kept=$log
		echo "FAIL: fuzz_$name exited $rc; its log ($kept) ends:"
		tail -40 "$log" | sed 's/^/  /'
		status=1
	fi
done
exit $status
