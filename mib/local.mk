# mib/: TUNEWATCH-MIB and the C header of its OIDs
