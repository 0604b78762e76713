#!/usr/bin/env python3
"""contrib/notify/tunewatch-ticket on real check output: check_dblock
against tunewatchd on tests/fixtures/agent (changed as plugin_dblock.py
changes it: four pools fail, five findings), handed over as Icinga 2 hands
it (the whole output in one variable, real newlines), as Nagios does (its
environment macros, the long output with \\n for newlines) and as options.
All three give the same tickets: one per finding id, keyed
host!service!finding-id, with the advice, apply and persist lines exactly
as the check printed them. A recovery gives no ticket, and bad input one
line and exit 2."""

import json
import os
import subprocess

import agent_walk
import plugin_common as pc
import twtest

SCRIPT = os.path.join(twtest.TOP_SRCDIR, "contrib", "notify", "tunewatch-ticket")
HOST, SERVICE = "web1", "message buffers"

# The findings plugin_dblock.py holds, by symptom, subject and tunable.
FINDINGS = [
    ("softnet-drops", "softnet backlog", "net.core.netdev_max_backlog", "2000"),
    ("softnet-squeeze", "softnet budget", "net.core.netdev_budget", "600"),
    ("udp-rcvbuf", "udp receive buffer", "net.core.rmem_max", "425984"),
    ("udp-rcvbuf", "udp receive buffer", "net.core.rmem_default", "425984"),
    ("listen-overflow", "tcp listen queue", "net.core.somaxconn", "8192"),
]


def run(args=(), env=None):
    e = {k: v for k, v in os.environ.items() if not k.startswith(("TW_", "NAGIOS_"))}
    e.update(env or {})
    return subprocess.run(["python3", SCRIPT] + list(args), capture_output=True, text=True,
                          env=e, timeout=30)


def want_tickets(out):
    """The tickets, worked out from the check's own lines."""
    tickets = []
    for sym, subject, tunable, value in FINDINGS:
        fid = pc.ticket_id(sym, subject, tunable)
        lines = pc.ticket(sym, subject, tunable, value)
        i = out.long.index(lines[0])
        advice = out.long[i - 1]
        assert advice.startswith("tune: %s " % tunable), advice
        item = [l for l in out.long[:i] if not l.startswith(("tune: ", " "))][-1]
        assert out.long[i + 1:i + 3] == lines[1:], (out.long[i + 1:i + 3], lines)
        tickets.append({
            "key": "%s!%s!%s" % (HOST, SERVICE, fid), "finding": fid,
            "title": "%s %s: %s" % (HOST, SERVICE, advice[len("tune: "):].split(" (")[0]),
            "advice": advice, "item": item, "apply": lines[1][len("  apply: "):],
            "persist": lines[2][len("  persist: "):], "notes": [],
            "close_on_recovery": False})
    return tickets


def check_problem(out):
    want = {"host": HOST, "service": SERVICE, "state": "WARNING",
            "notification_type": "PROBLEM", "summary": out.summary_line,
            "tickets": want_tickets(out),
            "changes": [l for l in out.long if l.startswith("change: ")]}
    nagios_long = "\\n".join(out.long)
    ways = {
        "icinga": {"TW_HOST": HOST, "TW_SERVICE": SERVICE, "TW_STATE": "WARNING",
                   "TW_NOTIFICATION_TYPE": "PROBLEM",
                   "TW_OUTPUT": "\n".join([out.summary_line] + out.long)},
        "nagios": {"NAGIOS_HOSTNAME": HOST, "NAGIOS_SERVICEDESC": SERVICE,
                   "NAGIOS_SERVICESTATE": "WARNING", "NAGIOS_NOTIFICATIONTYPE": "PROBLEM",
                   "NAGIOS_SERVICEOUTPUT": out.summary_line,
                   "NAGIOS_LONGSERVICEOUTPUT": nagios_long},
    }
    for name, env in ways.items():
        r = run(["--format", "json"], env)
        assert r.returncode == 0 and r.stderr == "", (name, r)
        assert r.stdout.count("\n") == 1, (name, r.stdout)
        got = json.loads(r.stdout)
        assert got == want, "%s:\n got %r\nwant %r" % (name, got, want)
    r = run(["--format", "json", "--host", HOST, "--service", SERVICE, "--state", "WARNING",
             "--output", out.summary_line, "--long-output", "\n".join(out.long)])
    assert r.returncode == 0 and json.loads(r.stdout) == want, r

    # Text: one block per ticket, "--" between them, each ending with why
    # it must not close itself; then (both) the JSON on the last line.
    r = run([], ways["icinga"])
    assert r.returncode == 0, r
    text, _, last = r.stdout.rstrip("\n").rpartition("\n")
    assert json.loads(last) == want
    blocks = text.split("\n--\n")
    assert len(blocks) == len(FINDINGS), r.stdout
    for block, t in zip(blocks, want["tickets"]):
        lines = block.split("\n")
        assert lines[:7] == [
            "Key: " + t["key"], "Title: " + t["title"],
            "State: WARNING (PROBLEM): " + out.summary_line, "Seen: " + t["item"],
            "Advice: " + t["advice"], "Apply now: " + t["apply"],
            "Make persistent: " + t["persist"]], lines
        assert lines[-1].startswith("Do not close this ticket on recovery"), lines
    print(r.stdout)


def check_recovery_and_bad_input(h):
    ok = pc.run("check_dblock", ["-w", "200", "-c", "300"], h.port)
    assert ok.state == "OK", ok
    env = {"TW_HOST": HOST, "TW_SERVICE": SERVICE, "TW_STATE": "OK",
           "TW_NOTIFICATION_TYPE": "RECOVERY", "TW_OUTPUT": ok.summary_line}
    r = run(["--format", "json"], env)
    assert r.returncode == 0 and json.loads(r.stdout)["tickets"] == [], r
    r = run(["--format", "text"], env)
    assert r.stdout == "%s!%s OK (RECOVERY): a recovery, no ticket; open tickets stay open\n" % (
        HOST, SERVICE), r.stdout

    r = run(["--format", "json"], {"TW_SERVICE": SERVICE, "TW_STATE": "WARNING",
                                   "TW_OUTPUT": "DBLOCK WARNING"})
    assert r.returncode == 2 and r.stdout == "", r
    assert r.stderr == "tunewatch-ticket: no host given (options, TW_* or NAGIOS_* " \
                       "environment)\n", r.stderr
    r = run(["--append", os.path.join(h.dir, "no", "such", "dir")], env)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r
    r = run(["--format", "yaml"], env)
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1, r
    assert r.stderr.startswith("tunewatch-ticket: argument --format: invalid choice"), r


def test():
    with twtest.Harness("notify-ticket") as h:
        agent_walk.start_changed(h)
        out = pc.run("check_dblock", [], h.port)
        assert out.state == "WARNING", out
        check_problem(out)
        check_recovery_and_bad_input(h)


if __name__ == "__main__":
    twtest.main(test)
