#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""contrib/notify/tunewatch-ticket on real check output: check_dblock
against tunewatchd on tests/fixtures/agent (changed as plugin_dblock.py
changes it: four pools fail, five findings), handed over as Icinga 2 hands
it (the whole output in one variable, real newlines), as Nagios does (its
environment macros, the long output with \\n for newlines) and as options.
All three give the same tickets: one per finding id, keyed
host!service!finding-id, with the advice, apply and persist lines exactly
as the check printed them. A recovery gives no ticket, and bad input one
line and exit 2.

Then hostile input, as a local user who names processes and cgroups could
make it, or a check older than the escaping, or a macro that cut a
character in half: bytes that are not UTF-8 in the environment and in
options, control characters, line and paragraph separators, a lone
surrogate and a NUL (these two only through the script's own shown(), since
no argv or environment can carry them), forged-looking lines already
escaped, and 500 findings in 120 KB. Always: exit 0 or 2, never 1;
stdout and the spool file valid UTF-8 and valid JSON; every finding kept.
--append writes whole or not at all: an existing spool keeps what it held
and its mode, a failing write leaves it as it was (and never makes an
empty one), and 10 notifications at once all land."""

import importlib.machinery
import importlib.util
import json
import os
import resource
import signal
import stat
import subprocess

import agent_walk
import plugin_common as pc
import twtest

SCRIPT = os.path.join(twtest.TOP_SRCDIR, "contrib", "notify", "tunewatch-ticket")
HOST, SERVICE = "web1", "message buffers"

# The findings plugin_dblock.py holds, by symptom, subject and tunable.
FINDINGS = [
    ("softnet-drops", "softnet backlog", "net.core.netdev_max_backlog", "2000"),
    # cpu0 ran out of budget 3 times, but its backlog dropped nothing: no
    # finding (the lab's squeezes lost nothing).
    ("udp-rcvbuf", "udp receive buffer", "net.core.rmem_max", "425984"),
    ("udp-rcvbuf", "udp receive buffer", "net.core.rmem_default", "425984"),
    ("listen-overflow", "tcp listen queue", "net.core.somaxconn", "8192"),
]


def run(args=(), env=None, raw=False, limit_file_size=None):
    """The script run as a notification runs it; with raw, bytes in and out
    (args and env values may be bytes of any kind); with limit_file_size,
    under an RLIMIT_FSIZE of that many bytes (SIGXFSZ ignored, so a write
    past it fails with EFBIG, as on a full disk)."""
    e = {k: v for k, v in os.environ.items() if not k.startswith(("TW_", "NAGIOS_"))}
    e.update(env or {})
    if raw:
        e = {k.encode() if isinstance(k, str) else k: v.encode() if isinstance(v, str) else v
             for k, v in e.items()}
    def limited():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_file_size, limit_file_size))

    return subprocess.run(["python3", SCRIPT] + list(args), capture_output=True, text=not raw,
                          env=e, timeout=60, preexec_fn=limited if limit_file_size else None)


def script_module():
    """The script itself, imported, for what no process can be handed."""
    loader = importlib.machinery.SourceFileLoader("tunewatch_ticket", SCRIPT)
    spec = importlib.util.spec_from_loader("tunewatch_ticket", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def utf8_json(r, what):
    """r's stdout (bytes): valid UTF-8, with no control byte but newlines,
    its last line one JSON document; that document."""
    assert r.returncode == 0, (what, r)
    text = r.stdout.decode("utf-8")     # strict: any bad byte fails here
    assert not [c for c in text if ord(c) < 0x20 and c != "\n"], (what, text[:400])
    return json.loads(text.rstrip("\n").rpartition("\n")[2])


def hostile_env(output):
    return {"TW_HOST": b"web\xff1", "TW_SERVICE": b"message\xc3buffers", "TW_STATE": "WARNING",
            "TW_NOTIFICATION_TYPE": "PROBLEM", "TW_OUTPUT": output}


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
        assert out.long[i + 1:i + 4] == lines[1:], (out.long[i + 1:i + 4], lines)
        tickets.append({
            "key": "%s!%s!%s" % (HOST, SERVICE, fid), "finding": fid,
            "title": "%s %s: %s" % (HOST, SERVICE, advice[len("tune: "):].split(" (")[0]),
            "advice": advice, "item": item, "apply": lines[1][len("  apply: "):],
            "persist": lines[2][len("  persist: "):],
            # The proof line goes with the ticket, among its notes.
            "notes": [lines[3].strip()],
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


def check_hostile_bytes(out):
    """The check's real output with hostile bytes around and inside it."""
    whole = "\n".join([out.summary_line] + out.long).encode()
    forged = (b"udp 127.0.0.1:9 x\\x0atune: sysctl (pid 7): WARNING, 5 failures\n"
              b"udp 127.0.0.1:10 \\x0a  apply: id;# (pid 8): WARNING, 5 failures\n"
              b"weird \xff\xfe\x1b[2J\r\x07\xe2\x80\xa8\xc2\x85 line\n"
              b"no tunable: a socket of its own\n  finding: tw-00000000abcd\n")
    fed = whole.replace(b"\n", b"\n" + forged, 1) + b"\n\xe2\x82"	# a character cut short
    for fmt in ("json", "both", "text"):
        r = run(["--format", fmt], hostile_env(fed), raw=True)
        if fmt == "text":
            assert r.returncode == 0 and r.stdout.decode("utf-8"), r
            continue
        doc = utf8_json(r, fmt)
        assert doc["host"] == "web\\xff1" and doc["service"] == "message\\xc3buffers", doc
        assert [t["finding"] for t in doc["tickets"]] == ["tw-00000000abcd"] + [
            pc.ticket_id(*f[:3]) for f in FINDINGS], doc
        assert doc["tickets"][0]["item"] == \
            "weird \\xff\\xfe\\x1b[2J\\x0d\\x07\\xe2\\x80\\xa8\\xc2\\x85 line", doc["tickets"][0]
    # The same bytes as options.
    r = run(["--format", "json", "--host", b"h\xff", "--service", "s", "--state", "W",
             "--output", fed], raw=True)
    assert len(utf8_json(r, "options")["tickets"]) == len(FINDINGS) + 1, r
    # Nagios' escaped long output with a bad byte in it.
    r = run(["--format", "json"], {"NAGIOS_HOSTNAME": "h", "NAGIOS_SERVICEDESC": "s",
                                   "NAGIOS_SERVICESTATE": "WARNING",
                                   "NAGIOS_SERVICEOUTPUT": out.summary_line.encode(),
                                   "NAGIOS_LONGSERVICEOUTPUT": b"\\n".join(
                                       l.encode() for l in out.long) + b"\\n\xff"}, raw=True)
    assert len(utf8_json(r, "nagios")["tickets"]) == len(FINDINGS), r

    # What no process can be handed: a NUL, a lone surrogate.
    mod = script_module()
    assert mod.shown("a\0b\ud800c\udcffd\udfff\\x0a") == \
        "a\\x00b\\xed\\xa0\\x80c\\xffd\\xed\\xbf\\xbf\\x0a"
    assert mod.shown("keep \u00e4 \\x5cx2d\nnext") == "keep \u00e4 \\x5cx2d\nnext"


def check_huge():
    """500 findings in some 120 KB: every one a ticket."""
    lines = ["DBLOCK WARNING - many"]
    for i in range(500):
        lines += ["udp 127.0.0.1:%d comm\\x0a%d (pid %d): WARNING" % (i, i, i),
                  "no tunable: socket %d \xff dropped %s" % (i, "x" * 150),
                  "  finding: tw-%012x" % i]
    fed = "\n".join(lines).encode("latin-1")	# "\xff" is the byte 0xff
    assert len(fed) > 100000, len(fed)
    doc = utf8_json(run(["--format", "json"], hostile_env(fed), raw=True), "huge")
    assert len(doc["tickets"]) == 500, len(doc["tickets"])
    assert all(len(t["title"]) <= 140 for t in doc["tickets"]), doc["tickets"][0]


def check_append(h):
    """The spool: whole or not at all."""
    spool = os.path.join(h.dir, "tickets.json")
    env = hostile_env(b"DBLOCK WARNING - x\nno tunable: y\xff\n  finding: tw-00000000000a")
    with open(spool, "wb") as fh:
        fh.write(b"held\n")
    os.chmod(spool, 0o640)
    r = run(["--format", "json", "--append", spool], env, raw=True)
    assert r.returncode == 0 and r.stdout == b"", r
    with open(spool, "rb") as fh:
        text = fh.read().decode("utf-8")
    assert text.startswith("held\n") and len(json.loads(text[5:])["tickets"]) == 1, text
    assert stat.S_IMODE(os.stat(spool).st_mode) == 0o640
    # Ten at once: each lands, none is lost to another's rename.
    procs = [subprocess.Popen(["python3", SCRIPT, "--format", "json", "--append", spool],
                              env=dict(os.environ, TW_HOST="h%d" % i, TW_SERVICE="s",
                                       TW_STATE="WARNING", TW_OUTPUT="X\nno tunable: n\n"
                                       "  finding: tw-%012x" % i),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
             for i in range(10)]
    for p in procs:
        assert p.wait(timeout=60) == 0, p.stderr.read()
        p.stderr.close()
    with open(spool, "rb") as fh:
        docs = [json.loads(l) for l in fh.read().decode("utf-8").splitlines()[1:]]
    assert sorted(d["host"] for d in docs[1:]) == sorted("h%d" % i for i in range(10)), docs
    # A write that fails partway (the file size limit, as a full disk
    # would) leaves the spool as it was, and makes no file, empty or not,
    # where there was none.
    before = open(spool, "rb").read()
    fresh = os.path.join(h.dir, "fresh.json")
    for path, limit in ((spool, len(before) + 16), (fresh, 64)):
        r = run(["--format", "json", "--append", path], env, raw=True,
                limit_file_size=limit)
        assert r.returncode == 2 and r.stderr.count(b"\n") == 1, r
    assert open(spool, "rb").read() == before
    assert not os.path.exists(fresh)
    r = run(["--append", os.path.join(spool, "not-a-dir")], env, raw=True)
    assert r.returncode == 2 and r.stderr.count(b"\n") == 1, r
    assert open(spool, "rb").read() == before
    assert not [f for f in os.listdir(h.dir) if f.startswith(".tunewatch-ticket-")]


def check_exit_codes():
    """Never 1: a reader that went away, an option of any bytes."""
    env = {"TW_HOST": "h", "TW_SERVICE": "s", "TW_STATE": "W",
           "TW_OUTPUT": "X\n" + "".join("no tunable: y\n  finding: tw-%012x\n" % i
                                        for i in range(2000))}
    e = dict({k: v for k, v in os.environ.items() if not k.startswith(("TW_", "NAGIOS_"))}, **env)
    p = subprocess.Popen(["python3", SCRIPT], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=e)
    p.stdout.close()	# the reader is gone before the first write
    rc = p.wait(timeout=60)
    err = p.stderr.read()
    p.stderr.close()
    assert rc == 2 and err.count(b"\n") == 1, (rc, err)
    r = run([b"--\xff"], env, raw=True)
    assert r.returncode == 2 and r.stderr.count(b"\n") == 1, r
    r = run([], {}, raw=True)
    assert r.returncode == 2, r


def test():
    with twtest.Harness("notify-ticket") as h:
        agent_walk.start_changed(h)
        out = pc.run("check_dblock", [], h.port)
        assert out.state == "WARNING", out
        check_problem(out)
        check_recovery_and_bad_input(h)
        check_hostile_bytes(out)
        check_huge()
        check_append(h)
        check_exit_codes()


if __name__ == "__main__":
    twtest.main(test)
