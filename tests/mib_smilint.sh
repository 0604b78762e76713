#!/bin/sh
# SPDX-License-Identifier: ISC
# TUNEWATCH-MIB must pass smilint -l 6 with no error and no warning.
#
# Against the stand-ins for the IETF base modules in tests/mibs (written
# for these tests: tests/mibs/README.md), which every machine has, so this
# never skips for want of the IETF's own (Debian ships them only in
# non-free). Where the IETF's modules are on the machine too (in
# ../shared/mibs, or /usr/share/snmp/mibs/ietf from snmp-mibs-downloader),
# the MIB is linted against them as well, and the stand-ins are held to
# them: every type TUNEWATCH-MIB imports reads the same to libsmi
# (smiquery: base type, range, display hint, status, named numbers), and
# every object of TUNEWATCH-MIB reads the same to Net-SNMP (snmptranslate
# -Td: syntax as the textual conventions resolve it, access, OID).
#
# smilint exits 0 even when it reports errors, so any output at all is a
# failure. Exit 0 pass, 1 fail, 77 skip (automake's convention).

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
mib=$top_srcdir/mib/TUNEWATCH-MIB.txt
standins=$top_srcdir/tests/mibs
netsnmp=/usr/share/snmp/mibs

skip()
{
	echo "SKIP: $*"
	exit 77
}

fail()
{
	echo "FAIL: $*"
	exit 1
}

has_base_mibs()
{
	for m in SNMPv2-SMI SNMPv2-TC SNMPv2-CONF HCNUM-TC; do
		[ -r "$1/$m.txt" ] || [ -r "$1/$m" ] || return 1
	done
	return 0
}

command -v smilint >/dev/null 2>&1 ||
	skip "smilint is not installed (Debian: apt-get install smitools)"
[ -r "$netsnmp/NET-SNMP-MIB.txt" ] ||
	skip "NET-SNMP-MIB not in $netsnmp (Debian: apt-get install libsnmp-base)"
has_base_mibs "$standins" || fail "the stand-ins are missing from $standins"

# -c /dev/null: no /etc/smi.conf or ~/.smirc, so only SMIPATH is searched
# and nobody's local settings can hide a warning.
lint()
{
	out=$(SMIPATH="$1:$netsnmp:$top_srcdir/mib" smilint -c /dev/null -l 6 "$mib" 2>&1)
	rc=$?
	if [ "$rc" -ne 0 ] || [ -n "$out" ]; then
		echo "FAIL: smilint -l 6 $mib (exit $rc, base modules from $1):"
		printf '%s\n' "$out"
		exit 1
	fi
	echo "smilint -l 6 reports nothing (base modules from $1)"
}

lint "$standins"

ietf=
for d in "$top_srcdir/../shared/mibs" /usr/share/snmp/mibs/ietf; do
	if has_base_mibs "$d"; then
		ietf=$(cd "$d" && pwd)
		break
	fi
done
if [ -z "$ietf" ]; then
	echo "PASS: the IETF's own base modules are not on this machine (snmp-mibs-downloader," \
	    "non-free): linted against the stand-ins only, which were not compared with them"
	exit 0
fi
lint "$ietf"
work=$(mktemp -d "${TMPDIR:-/tmp}/tw-smilint.XXXXXX") || fail "mktemp"
trap 'rm -rf "$work"' EXIT

# What libsmi makes of each imported type, less where it was read from and
# its description (the stand-ins' own words).
types=$(sed -n '/^IMPORTS/,/;/p' "$mib" | tr ',;' '  ' | awk '
	$1 == "FROM" { for (i = 0; i < n; i++) print $2 "::" pending[i]; n = 0; next }
	$1 != "IMPORTS" { for (i = 1; i <= NF; i++) if ($i == "FROM") {
		for (j = 0; j < n; j++) print $(i + 1) "::" pending[j]; n = 0; i++
	} else if ($i ~ /^[A-Z][A-Za-z0-9]*$/ && $i !~ /-/) pending[n++] = $i }')
[ -n "$types" ] || fail "no types found in $mib's IMPORTS"
query()
{
	for t in $types SNMPv2-SMI::enterprises; do
		kind=type
		[ "$t" = SNMPv2-SMI::enterprises ] && kind=node
		SMIPATH="$1" smiquery -c /dev/null "$kind" "$t" 2>&1 |
			awk '/^ *[A-Za-z ]+:/ { keep = ($1 !~ /^(Description|File|Line|Module):?$/) }
			    keep'
	done
}
query "$standins" >"$work/standins.smiquery"
query "$ietf" >"$work/ietf.smiquery"
if ! cmp -s "$work/standins.smiquery" "$work/ietf.smiquery"; then
	echo "FAIL: libsmi reads the stand-ins' types otherwise than the IETF's ($ietf):"
	diff "$work/ietf.smiquery" "$work/standins.smiquery"
	exit 1
fi

# Every object of the module as Net-SNMP reads it, in one call each way.
tr_all()
{
	names=$(MIBS= MIBDIRS= snmptranslate -M "$top_srcdir/mib:$1:$netsnmp" -m TUNEWATCH-MIB \
	    -Tz 2>&1 | awk -F'"' '/^"tw|^"tunewatch/ { print "TUNEWATCH-MIB::" $2 }')
	[ -n "$names" ] || return 1
	# shellcheck disable=SC2086
	MIBS= MIBDIRS= snmptranslate -M "$top_srcdir/mib:$1:$netsnmp" -m TUNEWATCH-MIB -Td $names 2>&1
}
tr_all "$standins" >"$work/standins.td" || fail "snmptranslate found no object with the stand-ins"
tr_all "$ietf" >"$work/ietf.td" || fail "snmptranslate found no object with $ietf"
if ! cmp -s "$work/standins.td" "$work/ietf.td"; then
	echo "FAIL: Net-SNMP reads TUNEWATCH-MIB otherwise with the stand-ins than with $ietf:"
	diff "$work/ietf.td" "$work/standins.td" | head -n 40
	exit 1
fi
n=$(grep -c 'OBJECT-TYPE\|NOTIFICATION-TYPE\|MODULE-IDENTITY' "$work/standins.td")
echo "PASS: linted against the stand-ins and $ietf; the stand-ins read as the IETF's:" \
    "$(echo $types | wc -w) imported types and enterprises (smiquery), $n definitions" \
    "(snmptranslate -Td)"
exit 0
