#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Load: 8 clients bulkwalking the whole MIB at once, back to back, for 60 s
(TW_LOAD_SECONDS), while tunewatchd samples every second. Every walk must
complete without a timeout or an error, and tunewatchd's resident memory
must stay flat (no leak). Prints the requests served and walk latency
percentiles."""

import os
import subprocess
import threading
import time

import twtest
from twtest import OBJECTS

CLIENTS = 8


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def percentile(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100.0 * (len(s) - 1))))]


def test():
    seconds = float(os.environ.get("TW_LOAD_SECONDS", "60"))
    with twtest.Harness("load") as h:
        h.start_snmpd()
        # This machine's /proc, a sample every second: the view changes
        # under the walks, as it does in production.
        # Under ASan, freed memory waits in a quarantine (up to 256 MiB)
        # that would read as growth; LeakSanitizer looks for leaks there.
        env = None
        if os.environ.get("TW_SANITIZERS") == "yes":
            asan = os.environ.get("ASAN_OPTIONS", "")
            env = {"ASAN_OPTIONS": (asan + ":" if asan else "") + "quarantine_size_mb=0"}
        h.start_agent(None, None, interval=1, window=10, env_extra=env)
        twtest.wait_for("a full window", lambda: (h.agent_samples() or 0) >= 2)
        expected = len(h.walk(bulk=True))
        assert expected > 50, expected

        stop = time.monotonic() + seconds
        lock = threading.Lock()
        latencies, errors = [], []
        varbinds = [0]

        def client():
            while time.monotonic() < stop:
                t0 = time.monotonic()
                r = h.run_client([h.snmpbulkwalk_bin, "-v2c", "-c", "public", "-On", "-m", "",
                                  "-t", "2", "-r", "0", "-Cr50",
                                  "127.0.0.1:%d" % h.port, OBJECTS], timeout=30)
                dt = time.monotonic() - t0
                n = r.stdout.count("\n")
                with lock:
                    if r.returncode != 0 or "Timeout" in r.stderr or n < expected // 2:
                        errors.append((r.returncode, r.stderr.strip()[:200], n))
                    latencies.append(dt)
                    varbinds[0] += n

        rss = []
        threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            rss.append(rss_kib(h.agent.pid))
            time.sleep(1)
        for t in threads:
            t.join()

        assert not errors, "%d failed walks, first: %s" % (len(errors), errors[0])
        assert h.agent.poll() is None, "tunewatchd died under load"
        samples = h.agent_samples()
        # Flat memory: after the first quarter, no more than 1 MiB of growth.
        settled = rss[len(rss) // 4:] or rss
        growth = max(settled) - settled[0]
        print("walks %d in %.0f s by %d clients; %d values; walk latency ms: p50 %.1f, "
              "p90 %.1f, p99 %.1f, max %.1f; tunewatchd RSS %d..%d KiB (growth after "
              "warm-up %d KiB); %d samples taken meanwhile" %
              (len(latencies), seconds, CLIENTS, varbinds[0],
               1000 * percentile(latencies, 50), 1000 * percentile(latencies, 90),
               1000 * percentile(latencies, 99), 1000 * max(latencies), min(rss), max(rss),
               growth, samples))
        assert growth <= 1024, "tunewatchd's memory grew %d KiB under load" % growth


if __name__ == "__main__":
    twtest.main(test)
