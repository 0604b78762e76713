#!/bin/sh
# SPDX-License-Identifier: ISC
# TUNEWATCH-MIB must pass smilint -l 6 with no error and no warning.
#
# smilint exits 0 even when it reports errors, so any output at all is a
# failure. Exit 0 pass, 1 fail, 77 skip (automake's convention).

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
mib=$top_srcdir/mib/TUNEWATCH-MIB.txt

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

command -v smilint >/dev/null 2>&1 ||
	skip "smilint is not installed (Debian: apt-get install smitools)"

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

# -c /dev/null: no /etc/smi.conf or ~/.smirc, so only SMIPATH is searched
# and nobody's local settings can hide a warning.
out=$(SMIPATH="$base:/usr/share/snmp/mibs:$top_srcdir/mib" \
    smilint -c /dev/null -l 6 "$mib" 2>&1)
rc=$?
if [ "$rc" -ne 0 ] || [ -n "$out" ]; then
	echo "FAIL: smilint -l 6 $mib (exit $rc, base modules from $base):"
	printf '%s\n' "$out"
	exit 1
fi
echo "PASS: smilint -l 6 reports nothing (base modules from $base)"
exit 0
