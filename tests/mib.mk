# tests/: MIB checks: smilint, and the header's OIDs against the MIB's
TESTS += tests/mib_smilint.sh tests/mib_oids.sh
EXTRA_DIST += tests/mib_smilint.sh tests/mib_oids.sh
