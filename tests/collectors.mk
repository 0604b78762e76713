# tests/: collector unit tests
