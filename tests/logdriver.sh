#!/bin/sh
# SPDX-License-Identifier: ISC
# The test driver of `make check` (tests/local.mk): automake's test-driver,
# told to write the test's output and result to files of this run's own,
# NAME.run-PID.log and NAME.run-PID.trs beside NAME.log, which are then put
# where automake reads them (NAME.log, NAME.trs) by a rename.
#
# Why: test-driver truncates NAME.log when it starts, so the same test run
# twice at once in one build tree (two `make check`s, or one test by hand
# beside `make check`) left one log cut into the other. Now each run's log
# stays whole under its own name, and NAME.log is the whole log of
# whichever run finished last. `make clean` removes the runs' files.
#
# Usage: logdriver.sh SHELL TEST-DRIVER [test-driver's options] -- TEST...

set -u

if [ $# -lt 2 ]; then
	echo "usage: $0 SHELL TEST-DRIVER [test-driver's options] -- TEST..." >&2
	exit 99
fi
shell=$1
driver=$2
shift 2

# Rotate the arguments once, replacing the two file names.
log= trs= run_log= run_trs=
n=$#
while [ "$n" -gt 0 ]; do
	a=$1
	shift
	n=$((n - 1))
	case $a in
	--log-file|--trs-file)
		if [ "$n" -eq 0 ]; then
			echo "$0: $a needs a file name" >&2
			exit 99
		fi
		f=$1
		shift
		n=$((n - 1))
		run=${f%.*}.run-$$.${f##*.}
		if [ "$a" = --log-file ]; then
			log=$f run_log=$run
		else
			trs=$f run_trs=$run
		fi
		set -- "$@" "$a" "$run"
		;;
	--)
		# The test and its arguments, as they are.
		set -- "$@" --
		while [ "$n" -gt 0 ]; do
			set -- "$@" "$1"
			shift
			n=$((n - 1))
		done
		;;
	*)
		set -- "$@" "$a"
		;;
	esac
done
if [ -z "$log" ] || [ -z "$trs" ]; then
	echo "$0: --log-file and --trs-file are needed" >&2
	exit 99
fi

start=$(date +%s)
"$shell" "$driver" "$@"
status=$?
# How long the test took, for where a suite's minutes go (TESTING.md, CI's
# time): the log's last line.
[ -f "$run_log" ] && echo "logdriver: $(($(date +%s) - start)) s" >>"$run_log"

# test-driver removes both files when it is interrupted: nothing to put in
# place then. The log is linked, so this run's copy stays; the result,
# which says nothing the log does not, is moved.
if [ -f "$run_log" ] && [ -f "$run_trs" ]; then
	tmp=$log.tmp-$$
	{ ln -f "$run_log" "$tmp" 2>/dev/null || cp "$run_log" "$tmp"; } &&
	    mv -f "$tmp" "$log" && mv -f "$run_trs" "$trs" || status=99
fi
exit $status
