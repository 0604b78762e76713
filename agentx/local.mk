# agentx: see the top-level Makefile.am
