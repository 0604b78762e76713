#!/bin/sh
# mib/tunewatch_oids.h and mib/TUNEWATCH-MIB.txt must agree.
#
# tunewatchd and the plugins use the header's numbers and never load the
# MIB, so nothing else would notice if the two drifted apart. For every
# TW_OID_* and TW_DBLOCK_* macro of the header this computes the numeric
# OID the C code builds (TW_MIB_ARC, then each parent's number) and compares
# it with what snmptranslate makes of the MIB name, and it checks the
# syntax and access the header's comment states; TW_DBLOCK_* are checked
# against the enumeration of twDblockClass. A macro missing from the
# table below fails the test, so a new macro cannot go unchecked; so does
# an object of twObjects that no macro names.
#
# Exit 0 pass, 1 fail, 77 skip (automake's convention).

LC_ALL=C
export LC_ALL
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
header=$top_srcdir/mib/tunewatch_oids.h
module=TUNEWATCH-MIB

# The mapping, kept here on purpose: macro, its name in the MIB, and the
# macro whose OID it extends (ARC: TW_MIB_ARC; ENUM: a value of
# twDblockClass's enumeration rather than an OID).
table='
TW_OID_OBJECTS			twObjects		ARC
TW_OID_CONFORMANCE		twConformance		ARC

TW_OID_AGENT			twAgent			TW_OID_OBJECTS
TW_OID_BUFCACHE			twBufferCache		TW_OID_OBJECTS
TW_OID_DBLOCK_TABLE		twDblockTable		TW_OID_OBJECTS
TW_OID_DISK_TABLE		twDiskTable		TW_OID_OBJECTS
TW_OID_TUNABLE_TABLE		twTunableTable		TW_OID_OBJECTS

TW_OID_AGENT_VERSION		twAgentVersion		TW_OID_AGENT
TW_OID_AGENT_INTERVAL		twAgentInterval		TW_OID_AGENT
TW_OID_AGENT_WINDOW		twAgentWindow		TW_OID_AGENT
TW_OID_AGENT_SAMPLE_AGE		twAgentSampleAge	TW_OID_AGENT
TW_OID_AGENT_MALFORMED		twAgentMalformedLines	TW_OID_AGENT
TW_OID_AGENT_WINDOW_SAMPLES	twAgentWindowSamples	TW_OID_AGENT
TW_OID_AGENT_WINDOW_SPAN	twAgentWindowSpan	TW_OID_AGENT
TW_OID_AGENT_SYSTEM		twAgentSystem		TW_OID_AGENT
TW_OID_AGENT_SAMPLES		twAgentSamples		TW_OID_AGENT

TW_OID_BC_MEM_TOTAL		twBcMemTotal		TW_OID_BUFCACHE
TW_OID_BC_MEM_AVAILABLE		twBcMemAvailable	TW_OID_BUFCACHE
TW_OID_BC_CACHED		twBcCached		TW_OID_BUFCACHE
TW_OID_BC_BUFFERS		twBcBuffers		TW_OID_BUFCACHE
TW_OID_BC_DIRTY			twBcDirty		TW_OID_BUFCACHE
TW_OID_BC_WRITEBACK		twBcWriteback		TW_OID_BUFCACHE
TW_OID_BC_READ_HIT_RATIO	twBcReadHitRatio	TW_OID_BUFCACHE
TW_OID_BC_HIT_RATIO_METHOD	twBcHitRatioMethod	TW_OID_BUFCACHE
TW_OID_BC_LOGICAL_READ_BYTES	twBcLogicalReadBytes	TW_OID_BUFCACHE
TW_OID_BC_PHYSICAL_READ_BYTES	twBcPhysicalReadBytes	TW_OID_BUFCACHE
TW_OID_BC_HIT_RATIO_PROCESSES	twBcHitRatioProcesses	TW_OID_BUFCACHE
TW_OID_BC_HIT_RATIO_UNREADABLE	twBcHitRatioUnreadable	TW_OID_BUFCACHE
TW_OID_BC_REFAULTS		twBcRefaults		TW_OID_BUFCACHE
TW_OID_BC_REFAULT_RATE		twBcRefaultRate		TW_OID_BUFCACHE
TW_OID_BC_MAJOR_FAULTS		twBcMajorFaults		TW_OID_BUFCACHE
TW_OID_BC_MAJOR_FAULT_RATE	twBcMajorFaultRate	TW_OID_BUFCACHE
TW_OID_BC_PAGE_IN_RATE		twBcPageInRate		TW_OID_BUFCACHE
TW_OID_BC_MEMORY_PRESSURE	twBcMemoryPressure	TW_OID_BUFCACHE
TW_OID_BC_IO_PRESSURE		twBcIoPressure		TW_OID_BUFCACHE
TW_OID_BC_SWAP_TOTAL		twBcSwapTotal		TW_OID_BUFCACHE
TW_OID_BC_SWAP_FREE		twBcSwapFree		TW_OID_BUFCACHE

TW_OID_DBLOCK_ENTRY		twDblockEntry		TW_OID_DBLOCK_TABLE
TW_OID_DBLOCK_CLASS		twDblockClass		TW_OID_DBLOCK_ENTRY
TW_OID_DBLOCK_INSTANCE		twDblockInstance	TW_OID_DBLOCK_ENTRY
TW_OID_DBLOCK_NAME		twDblockName		TW_OID_DBLOCK_ENTRY
TW_OID_DBLOCK_SIZE		twDblockSize		TW_OID_DBLOCK_ENTRY
TW_OID_DBLOCK_IN_USE		twDblockInUse		TW_OID_DBLOCK_ENTRY
TW_OID_DBLOCK_FREE		twDblockFree		TW_OID_DBLOCK_ENTRY
TW_OID_DBLOCK_LIMIT		twDblockLimit		TW_OID_DBLOCK_ENTRY
TW_OID_DBLOCK_FAILURES		twDblockFailures	TW_OID_DBLOCK_ENTRY
TW_OID_DBLOCK_RECENT_FAILURES	twDblockRecentFailures	TW_OID_DBLOCK_ENTRY
TW_OID_DBLOCK_TUNABLE		twDblockTunable		TW_OID_DBLOCK_ENTRY
TW_OID_DBLOCK_FAILURE_EVENT	twDblockFailureEvent	TW_OID_DBLOCK_ENTRY

TW_DBLOCK_SOFTNET_BACKLOG	softnetBacklog		ENUM
TW_DBLOCK_SOFTNET_BUDGET	softnetBudget		ENUM
TW_DBLOCK_TCP_MEMORY		tcpMemory		ENUM
TW_DBLOCK_UDP_MEMORY		udpMemory		ENUM
TW_DBLOCK_UDP_RCVBUF		udpReceiveBuffer	ENUM
TW_DBLOCK_UDP_SNDBUF		udpSendBuffer		ENUM
TW_DBLOCK_TCP_RCVBUF		tcpReceiveBuffer	ENUM
TW_DBLOCK_TCP_LISTEN		tcpListenQueue		ENUM
TW_DBLOCK_BUDDY_ZONE		buddyZone		ENUM
TW_DBLOCK_HIGH_ORDER		highOrderPages		ENUM

TW_OID_DISK_ENTRY		twDiskEntry		TW_OID_DISK_TABLE
TW_OID_DISK_MAJOR		twDiskMajor		TW_OID_DISK_ENTRY
TW_OID_DISK_MINOR		twDiskMinor		TW_OID_DISK_ENTRY
TW_OID_DISK_NAME		twDiskName		TW_OID_DISK_ENTRY
TW_OID_DISK_READS		twDiskReads		TW_OID_DISK_ENTRY
TW_OID_DISK_WRITES		twDiskWrites		TW_OID_DISK_ENTRY
TW_OID_DISK_READ_BYTES		twDiskReadBytes		TW_OID_DISK_ENTRY
TW_OID_DISK_WRITTEN_BYTES	twDiskWrittenBytes	TW_OID_DISK_ENTRY
TW_OID_DISK_READ_TIME		twDiskReadTime		TW_OID_DISK_ENTRY
TW_OID_DISK_WRITE_TIME		twDiskWriteTime		TW_OID_DISK_ENTRY
TW_OID_DISK_READ_OPS		twDiskReadOps		TW_OID_DISK_ENTRY
TW_OID_DISK_WRITE_OPS		twDiskWriteOps		TW_OID_DISK_ENTRY
TW_OID_DISK_READ_RATE		twDiskReadRate		TW_OID_DISK_ENTRY
TW_OID_DISK_WRITE_RATE		twDiskWriteRate		TW_OID_DISK_ENTRY
TW_OID_DISK_READ_LATENCY	twDiskReadLatency	TW_OID_DISK_ENTRY
TW_OID_DISK_WRITE_LATENCY	twDiskWriteLatency	TW_OID_DISK_ENTRY
TW_OID_DISK_QUEUE_DEPTH		twDiskQueueDepth	TW_OID_DISK_ENTRY
TW_OID_DISK_UTIL		twDiskUtil		TW_OID_DISK_ENTRY
TW_OID_DISK_IN_FLIGHT		twDiskInFlight		TW_OID_DISK_ENTRY
TW_OID_DISK_SCHEDULER		twDiskScheduler		TW_OID_DISK_ENTRY
TW_OID_DISK_NR_REQUESTS		twDiskNrRequests	TW_OID_DISK_ENTRY
TW_OID_DISK_READ_AHEAD_KB	twDiskReadAheadKb	TW_OID_DISK_ENTRY
TW_OID_DISK_WBT_LATENCY		twDiskWbtLatency	TW_OID_DISK_ENTRY
TW_OID_DISK_ROTATIONAL		twDiskRotational	TW_OID_DISK_ENTRY

TW_OID_TUNABLE_ENTRY		twTunableEntry		TW_OID_TUNABLE_TABLE
TW_OID_TUNABLE_INDEX		twTunableIndex		TW_OID_TUNABLE_ENTRY
TW_OID_TUNABLE_NAME		twTunableName		TW_OID_TUNABLE_ENTRY
TW_OID_TUNABLE_VALUE		twTunableValue		TW_OID_TUNABLE_ENTRY
'

skip()
{
	echo "SKIP: $*"
	exit 77
}

# The IETF base modules TUNEWATCH-MIB imports; Debian ships none of them.
has_base_mibs()
{
	for m in SNMPv2-SMI SNMPv2-TC SNMPv2-CONF HCNUM-TC; do
		[ -r "$1/$m.txt" ] || [ -r "$1/$m" ] || return 1
	done
	return 0
}

command -v snmptranslate >/dev/null 2>&1 ||
	skip "snmptranslate is not installed (Debian: apt-get install snmp)"

base=
for d in "$top_srcdir/../shared/mibs" /usr/share/snmp/mibs/ietf; do
	if has_base_mibs "$d"; then
		base=$d
		break
	fi
done
[ -n "$base" ] ||
	skip "no IETF base MIB modules (SNMPv2-SMI, SNMPv2-TC, SNMPv2-CONF, HCNUM-TC)" \
	    "in $top_srcdir/../shared/mibs or /usr/share/snmp/mibs/ietf" \
	    "(Debian: apt-get install snmp-mibs-downloader)"
[ -r /usr/share/snmp/mibs/NET-SNMP-MIB.txt ] ||
	skip "NET-SNMP-MIB not in /usr/share/snmp/mibs (Debian: apt-get install libsnmp-base)"

if [ ! -r "$header" ]; then
	echo "FAIL: cannot read $header"
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mib_oids.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# Keep snmptranslate to the command line: no snmp.conf of this machine or
# user, and its persistent directory (which it creates) in ours.
mkdir -m 700 "$tmp/persist" "$tmp/persist/cert_indexes" "$tmp/conf" || exit 1
SNMPCONFPATH=$tmp/conf
SNMP_PERSISTENT_DIR=$tmp/persist
export SNMPCONFPATH SNMP_PERSISTENT_DIR
unset MIBS MIBDIRS

mibdirs=$base:/usr/share/snmp/mibs:$top_srcdir/mib

translate()
{
	snmptranslate -M "$mibdirs" -m "$module" "$@"
}

fails=0
fail()
{
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# --- The header: every "#define TW_... value" as "name value comment". -----
awk '
/^[ \t]*#[ \t]*define[ \t]+TW_/ {
	line = $0
	sub(/^[ \t]*#[ \t]*define[ \t]+/, "", line)
	name = line
	sub(/[ \t(].*$/, "", name)
	rest = substr(line, length(name) + 1)
	comment = ""
	i = index(rest, "/*")
	if (i > 0) {
		comment = substr(rest, i + 2)
		sub(/\*\/.*$/, "", comment)
		rest = substr(rest, 1, i - 1)
	}
	gsub(/^[ \t]+|[ \t]+$/, "", rest)
	gsub(/^[ \t]+|[ \t]+$/, "", comment)
	print name "\t" rest "\t" comment
}' "$header" >"$tmp/macros" || exit 1

value_of()
{
	awk -F '\t' -v m="$1" '$1 == m { print $2; exit }' "$tmp/macros"
}

comment_of()
{
	awk -F '\t' -v m="$1" '$1 == m { print $3; exit }' "$tmp/macros"
}

# --- The arc. -----------------------------------------------------------------
arc=$(value_of TW_MIB_ARC | tr -d ' \t' | tr ',' '.')
arc_len=$(value_of TW_MIB_ARC_LEN)
case $arc in
'' | *[!0-9.]* | .* | *. | *..*)
	echo "FAIL: TW_MIB_ARC is missing from $header or is not a list of numbers"
	exit 1
	;;
esac
n=$(printf '%s\n' "$arc" | awk -F . '{ print NF }')
[ "$n" = "$arc_len" ] ||
	fail "TW_MIB_ARC has $n numbers but TW_MIB_ARC_LEN is '$arc_len'"

got=$(translate -On "$module::tunewatchMIB" 2>"$tmp/err")
if [ -s "$tmp/err" ] || [ "$got" != ".$arc" ]; then
	echo "FAIL: TW_MIB_ARC is .$arc; snmptranslate -On $module::tunewatchMIB says '$got'"
	cat "$tmp/err"
	# Without the module nothing below can be checked.
	exit 1
fi

# --- The table against the header, both ways. --------------------------------
printf '%s\n' "$table" | awk 'NF > 0' >"$tmp/table"
awk -F '\t' '$1 ~ /^TW_(OID|DBLOCK)_/ { print $1 }' "$tmp/macros" | sort >"$tmp/h_names"
awk '{ print $1 }' "$tmp/table" | sort >"$tmp/t_names"
for m in $(comm -23 "$tmp/h_names" "$tmp/t_names"); do
	fail "$m is in $header but not in the table of $0: add it"
done
for m in $(comm -13 "$tmp/h_names" "$tmp/t_names"); do
	fail "$m is in the table of $0 but not in $header"
done
for m in $(uniq -d "$tmp/h_names"); do
	fail "$m is defined twice in $header"
done
for m in $(uniq -d "$tmp/t_names"); do
	fail "$m is twice in the table of $0"
done
for n in $(awk '{ print $2 }' "$tmp/table" | sort | uniq -d); do
	fail "$n is named by two macros in the table of $0"
done

parent_of()
{
	awk -v m="$1" '$1 == m { print $3; exit }' "$tmp/table"
}

# The OID the C code builds for macro $1: its parents' numbers, then its own.
c_oid()
{
	_m=$1
	_oid=
	_depth=0
	while [ "$_m" != ARC ]; do
		_v=$(value_of "$_m")
		case $_v in
		'' | *[!0-9]*)
			echo "value of $_m ('$_v') is not a number"
			return 1
			;;
		esac
		_oid=$_v${_oid:+.$_oid}
		_m=$(parent_of "$_m")
		_depth=$((_depth + 1))
		if [ -z "$_m" ] || [ "$_m" = ENUM ] || [ "$_depth" -gt 16 ]; then
			echo "the parents of $1 in the table do not lead to TW_MIB_ARC"
			return 1
		fi
	done
	echo ".$arc.$_oid"
}

# --- Every macro's OID, syntax and access. -------------------------------------
checked=0
while read -r macro name parent; do
	[ "$parent" = ENUM ] && continue
	if ! want=$(c_oid "$macro"); then
		fail "$macro: $want"
		continue
	fi
	got=$(translate -On "$module::$name" 2>"$tmp/err")
	if [ -s "$tmp/err" ] || [ "$got" != "$want" ]; then
		fail "$macro is $want in the header; snmptranslate -On $module::$name says '$got' $(cat "$tmp/err")"
		continue
	fi
	checked=$((checked + 1))

	translate -Td "$module::$name" >"$tmp/def" 2>/dev/null
	grep -q '^  SYNTAX' "$tmp/def" || continue	# not a leaf

	# The header's comment of a leaf starts with its syntax, after
	# "INDEX: " for the index columns, which are not-accessible.
	comment=$(comment_of "$macro")
	case $comment in
	INDEX:*)
		want_access=not-accessible
		comment=${comment#INDEX:}
		;;
	*)
		want_access=read-only
		;;
	esac
	want_syntax=$(printf '%s\n' "$comment" | awk '{ sub(/[^A-Za-z0-9].*$/, "", $1); print $1 }')
	# snmptranslate names the textual convention, if any, and the base type.
	tc=$(awk '/^  -- TEXTUAL CONVENTION / { print $4; exit }' "$tmp/def")
	syntax=$(awk '/^  SYNTAX/ { print $2; exit }' "$tmp/def")
	access=$(awk '/^  MAX-ACCESS/ { print $2; exit }' "$tmp/def")
	if [ -z "$want_syntax" ]; then
		fail "$macro: its comment in the header does not state the syntax of $name"
	elif [ "$want_syntax" != "${tc:-$syntax}" ]; then
		fail "$macro: the header says $want_syntax; $name is ${tc:-$syntax} in the MIB"
	fi
	[ "$access" = "$want_access" ] ||
		fail "$macro: $name should be $want_access; the MIB says '$access'"
done <"$tmp/table"

# --- The dblock classes against twDblockClass's enumeration. -------------------
translate -Td "$module::twDblockClass" 2>"$tmp/err" |
	awk '/^  SYNTAX/ {
		s = $0
		while (match(s, /[A-Za-z][A-Za-z0-9-]*\([0-9]+\)/)) {
			e = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
			sub(/\(/, " ", e)
			sub(/\)/, "", e)
			print e
		}
	}' >"$tmp/enums"
if [ -s "$tmp/err" ] || [ ! -s "$tmp/enums" ]; then
	fail "no enumeration for $module::twDblockClass $(cat "$tmp/err")"
fi
while read -r macro name parent; do
	[ "$parent" = ENUM ] || continue
	want=$(value_of "$macro")
	got=$(awk -v n="$name" '$1 == n { print $2; exit }' "$tmp/enums")
	if [ "$got" != "$want" ]; then
		fail "$macro is $want in the header; $name is '$got' in twDblockClass"
		continue
	fi
	checked=$((checked + 1))
done <"$tmp/table"
while read -r label num; do
	awk -v n="$label" '$2 == n && $3 == "ENUM" { f = 1 } END { exit !f }' "$tmp/table" ||
		fail "twDblockClass has $label($num), which no TW_DBLOCK_* macro names"
done <"$tmp/enums"

# --- Every object of twObjects has a macro. -----------------------------------
translate -Tz 2>/dev/null | tr -d '"' |
	awk -v pre="$arc.1" '$2 == pre || index($2, pre ".") == 1 { print $1 }' \
	>"$tmp/objects"
[ -s "$tmp/objects" ] || fail "snmptranslate -Tz lists nothing under twObjects"
while read -r name; do
	[ "$name" = twObjects ] && continue
	awk -v n="$name" '$2 == n { found = 1 } END { exit !found }' "$tmp/table" ||
		fail "$name is in the MIB but no macro of $header names it"
done <"$tmp/objects"

if [ "$fails" -ne 0 ]; then
	echo "$fails failure(s); $checked of the $(wc -l <"$tmp/table") macros of the table agree"
	exit 1
fi
echo "PASS: TW_MIB_ARC and $checked macros of $header agree with $module (base modules from $base)"
exit 0
