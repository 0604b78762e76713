# bench/: benchmarks, run with make bench (not part of make check)
