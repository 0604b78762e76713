# lib/: plugin core (ranges, perfdata, extra-opts, advice)
