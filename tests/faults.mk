# tests/: faults tests (see the folder's own files)
