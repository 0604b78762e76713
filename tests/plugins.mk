# tests/: plugins tests (see the folder's own files)
