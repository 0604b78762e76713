# SPDX-License-Identifier: ISC
# mib/: TUNEWATCH-MIB and the C header of its OIDs
#
# The MIB is installed where Net-SNMP's tools look by default; the header
# is for tunewatchd and the plugins, which load no MIB file.
mibdir = $(datadir)/snmp/mibs
dist_mib_DATA = mib/TUNEWATCH-MIB.txt
EXTRA_DIST += mib/tunewatch_oids.h
