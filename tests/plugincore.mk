# tests/: plugin core unit tests
