#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""-t and --timeout-result.

1. An agent that swallows requests: a UDP socket bound here that never
   answers. With -t 2 each check gives up within about 2.5 s with one whole
   UNKNOWN line naming host and port; with --timeout-result CRITICAL it
   exits 2 (CRITICAL), since an agent that does not answer within -t is
   what that option is for.
2. The alarm itself: with --local on a fixture copy whose /proc/meminfo is a
   FIFO nobody writes, reading blocks until -t fires; the line written from
   the signal handler is whole and carries the --timeout-result state.
Every check is run and every failure is listed before the test fails."""

import os
import shutil
import socket
import tempfile

import plugin_common as pc
import twtest


class Failures(list):
    def check(self, cond, what, out):
        if not cond:
            self.append("%s\n%r" % (what, out))


def one_line(out):
    return out.stdout.endswith("\n") and out.stdout.count("\n") == 1


def check_black_hole(fails):
    hole = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        hole.bind(("127.0.0.1", 0))
        port = hole.getsockname()[1]
        slack = 2 * pc.startup_s(2)
        runs = []
        for check in pc.CHECKS:
            runs.append((check, None, pc.start(check, ["-t", "2"], port)))
            runs.append((check, "CRITICAL", pc.start(check, ["-t", "2", "--timeout-result",
                                                             "CRITICAL"], port)))
        for check, result, started in runs:
            out = pc.finish(check, started, timeout=10)
            fails.check(out.elapsed < 2.5 + slack, "took %.2f s with -t 2 (start-up here "
                        "%.2f s)" % (out.elapsed, slack / 2), out)
            fails.check(one_line(out), "not one whole line", out)
            if result is None:
                fails.check("127.0.0.1:%d" % port in out.first,
                            "the line does not name host and port", out)
                fails.check(out.rc == 3 and out.state == "UNKNOWN", "want UNKNOWN (3)", out)
            else:
                fails.check("127.0.0.1" in out.first, "the line does not name the agent", out)
                fails.check(out.rc == 2 and out.state == "CRITICAL",
                            "--timeout-result CRITICAL: want CRITICAL (2)", out)
        # The checks did ask: two tries each.
        hole.setblocking(False)
        asked = 0
        try:
            while True:
                hole.recv(65536)
                asked += 1
        except BlockingIOError:
            pass
        assert asked >= 2 * len(runs), "the hole received %d requests" % asked
    finally:
        hole.close()


def check_alarm(fails, tmp):
    root = os.path.join(tmp, "agent")
    shutil.copytree(os.path.join(twtest.FIXTURES, "agent"), root, symlinks=True)
    pc.writable(root)
    meminfo = os.path.join(root, "proc", "meminfo")
    os.unlink(meminfo)
    os.mkfifo(meminfo)
    args = ["--local", "--delay", "1", "-t", "2", "--proc-root", os.path.join(root, "proc"),
            "--sys-root", os.path.join(root, "sys")]
    slack = 2 * pc.startup_s(3)
    runs = []
    for check in pc.CHECKS:
        runs.append((check, "UNKNOWN", pc.start(check, args)))
        runs.append((check, "CRITICAL", pc.start(check, args + ["--timeout-result", "CRITICAL"])))
        runs.append((check, "OK", pc.start(check, args + ["--timeout-result", "OK"])))
    for check, state, started in runs:
        out = pc.finish(check, started, timeout=10)
        fails.check(out.stdout == "%s %s - plugin timed out after 2 s\n" % (pc.SERVICE[check],
                                                                            state),
                    "want the timeout line with %s" % state, out)
        fails.check(out.rc == pc.STATES[state], "want exit %d" % pc.STATES[state], out)
        fails.check(1.9 < out.elapsed < 2.5 + slack, "took %.2f s with -t 2 (start-up here "
                    "%.2f s)" % (out.elapsed, slack / 2), out)


def test():
    fails = Failures()
    check_black_hole(fails)
    with tempfile.TemporaryDirectory(prefix="tw-plugin-timeout-") as tmp:
        check_alarm(fails, tmp)
    assert not fails, "%d failures:\n%s" % (len(fails), "\n".join(fails))


if __name__ == "__main__":
    twtest.main(test)
