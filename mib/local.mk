# mib: see the top-level Makefile.am
