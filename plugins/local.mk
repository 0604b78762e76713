# plugins: see the top-level Makefile.am
