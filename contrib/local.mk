# contrib: see the top-level Makefile.am
