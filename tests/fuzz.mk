# tests/: fuzz tests (see the folder's own files)
