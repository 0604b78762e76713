#!/bin/sh
# SPDX-License-Identifier: ISC
# tests/mib_text must catch a MIB that drifted from the column table: run it
# on copies of TUNEWATCH-MIB with one thing changed each, and expect each
# to fail, naming the object. Exit 0 pass, 1 fail (automake's convention).

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-.}
mib=$top_srcdir/mib/TUNEWATCH-MIB.txt
prog=$top_builddir/tests/mib_text

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mib_text_drift.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

if ! "$prog" "$mib" >"$tmp/out"; then
	echo "FAIL: tests/mib_text fails on the MIB itself:"
	cat "$tmp/out"
	exit 1
fi

fails=0
# A sed expression, and the object the failure must name.
while IFS='|' read -r expr name; do
	[ -n "$expr" ] || continue
	sed "$expr" "$mib" >"$tmp/mib.txt"
	if cmp -s "$mib" "$tmp/mib.txt"; then
		echo "FAIL: '$expr' changes nothing in the MIB"
		fails=$((fails + 1))
	elif "$prog" "$tmp/mib.txt" >"$tmp/out" || ! grep -q "$name" "$tmp/out"; then
		echo "FAIL: with '$expr', tests/mib_text does not fail on $name:"
		cat "$tmp/out"
		fails=$((fails + 1))
	fi
done <<'CASES'
s/::= { twDiskEntry 14 }/::= { twDiskEntry 24 }/|twDiskReadLatency
/^twBcReadHitRatio OBJECT-TYPE/,/UNITS/s/(0\.\.10000)/(0..20000)/|twBcReadHitRatio
/^twDiskWbtLatency OBJECT-TYPE/,/SYNTAX/s/Integer32/Unsigned32/|twDiskWbtLatency
/^twDblockSize OBJECT-TYPE/,/UNITS/s/"bytes"/"octets"/|twDblockSize
/^twAgentSystem OBJECT-TYPE/,/MAX-ACCESS/s/read-only/read-write/|twAgentSystem
/^twDiskRotational OBJECT-TYPE/,/SYNTAX/s/TruthValue/Integer32/|twDiskRotational
s/udpSendBuffer(6)/udpSendBuffer(11)/|udpSendBuffer
s/^twDiskInFlight OBJECT-TYPE/twDiskInFlightNow OBJECT-TYPE/|twDiskInFlight
s/                    cut(5)/                    cut(6)/|twSockDropOwnerSearch
s/^    ::= { netSnmpPlaypen 8863 }/    ::= { netSnmpPlaypen 8864 }/|tunewatchMIB
CASES

if [ "$fails" -ne 0 ]; then
	echo "$fails change(s) to the MIB went unnoticed"
	exit 1
fi
echo "PASS: tests/mib_text caught each of the changes to the MIB"
exit 0
