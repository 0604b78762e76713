# tests/: MIB checks
