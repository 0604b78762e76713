#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""One tuning ticket's life in Debian's Request Tracker 5 (rttest.py: SQLite,
rt-server on 127.0.0.1, a token for root), filed by a real Icinga 2 through
contrib/notify/tunewatch-rt.conf and by a real snmptrapd, both against
tunewatchd on a fixture whose CPU 1 input queue drops packets while the
test says so:

1. drops: check_dblock goes WARNING, Icinga 2 notifies, and RT has one
   ticket in queue Tuning, keyed tw-host!message buffers!<the check's
   finding id>, with the check's advice, apply and persist lines;
2. Icinga 2 notifies again (interval 3s): a comment, no second ticket;
3. the drops stop: the check recovers, Icinga 2 notifies the recovery: a
   comment, and the ticket stays open;
4. the drops come back: a comment on the same ticket;
5. net.core.netdev_max_backlog 1000 -> 1500 while the drops double: the
   change is evaluated, and the check's change: line, which every repeat
   notification carries, comments the figures once; the ticket stays open;
6. Icinga 2 stopped and snmptrapd started (its traphandle runs
   tunewatch-rt --trap): 1500 -> 3000 and the drops stop;
   twTunableChangeEvaluated arrives with drops before and none after, and
   the ticket is commented with the figures and resolved;
7. six tunewatch-rt filing one new finding at the same moment: one ticket
   stays open, any other they opened is rejected and points to it.
Icinga 2's log must hold no warning (a failed notification is one).
"""

import json
import os
import re
import subprocess
import sys
import threading
import time

import monitoring as mon
import plugin_common as pc
import rttest
import twtest
from agent_findings import SOFTNET

NOTIFY_DIR = os.path.join(os.path.abspath(twtest.TOP_SRCDIR), "contrib", "notify")
SERVICE = "message buffers"
WINDOW = 6
ARC = twtest.ARC


class Drops(threading.Thread):
    """Writes cpu1's dropped count into the fixture every 0.25 s, growing
    by `rate` each time (0: no drops)."""

    def __init__(self, root):
        super().__init__(daemon=True)
        self.path = os.path.join(root, "proc", "net", "softnet_stat")
        self.rate = 0
        self.count = 0x10
        self.stop = threading.Event()

    def run(self):
        while not self.stop.wait(0.25):
            self.count += self.rate
            tmp = self.path + ".tmp"
            with open(tmp, "w") as fh:
                fh.write(SOFTNET % self.count)
            os.rename(tmp, self.path)


def start_trapd(h, rt, port):
    """snmptrapd on 127.0.0.1:port whose traphandle for
    twTunableChangeEvaluated is tunewatch-rt --trap (its output in
    trap-rt.log); numeric OIDs."""
    conf = os.path.join(h.dir, "snmptrapd.conf")
    with open(conf, "w") as fh:
        fh.write("authCommunity log,execute public\n"
                 "traphandle %s.0.5 %s --trap --url %s --token-file %s >>%s 2>&1\n"
                 % (ARC, os.path.join(NOTIFY_DIR, "tunewatch-rt"), rt.url, rt.token_file,
                    os.path.join(h.dir, "trap-rt.log")))
    p = subprocess.Popen([twtest.which("snmptrapd"), "-f", "-Lf", os.path.join(
        h.dir, "snmptrapd.log"), "-C", "-c", conf, "-On", "-m", "", "-p",
        os.path.join(h.dir, "snmptrapd.pid"), "udp:127.0.0.1:%d" % port],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
        env=dict(os.environ, MIBS="", SNMP_PERSISTENT_DIR=os.path.join(h.dir, "trap-persist")))
    h.procs.append(p)
    twtest.wait_for("snmptrapd to start", lambda: p.poll() is not None or "NET-SNMP version" in
                    read(os.path.join(h.dir, "snmptrapd.log")))
    assert p.poll() is None, "snmptrapd exited"
    return p


def read(path):
    try:
        with open(path, errors="replace") as fh:
            return fh.read()
    except FileNotFoundError:
        return ""


def write(root, rel, text):
    with open(os.path.join(root, "proc", rel), "w") as fh:
        fh.write(text)


def comments(rt, n):
    return [text for kind, text, _, _ in rt.history(n) if kind == "Comment"]


def status(rt, n):
    return rt.ticket(n)["Status"]


def kept(rt):
    """The queue's tickets but those tunewatch-rt rejected as a second
    ticket of one finding (two notifications at the same moment)."""
    return [t for t in rt.tickets() if t["Status"] != "rejected"]


def wait_comment(rt, n, what, pattern, after, timeout=60):
    """The first comment past the first `after` that matches pattern."""
    def found():
        for c in comments(rt, n)[after:]:
            if re.search(pattern, c):
                return c
        return None
    return twtest.wait_for(what, found, timeout=timeout, step=1.0)


def test():
    icinga = twtest.which("icinga2")
    if not icinga:
        raise twtest.Skip("icinga2 is needed (Debian: apt-get install icinga2-bin)")
    if not twtest.which("snmptrapd"):
        raise twtest.Skip("snmptrapd is needed (Debian: apt-get install snmptrapd)")
    why = rttest.present()
    if why:
        raise twtest.Skip(why)
    with twtest.Harness("notify-rt") as h:
        t0 = time.monotonic()
        rt = rttest.RequestTracker(h)
        rt.setup()
        rt.start()
        setup_s = time.monotonic() - t0
        trap_port = twtest.free_port()
        h.start_snmpd("trap2sink 127.0.0.1:%d public\n[snmp] clientaddr 127.0.0.1\n" % trap_port)
        root = pc.writable(h.copy_fixture("agent"))
        drops = Drops(root)
        drops.start()
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=1,
                      window=WINDOW)

        ic = mon.Icinga(icinga, h.dir)
        ic.write([os.path.join(NOTIFY_DIR, "tunewatch-rt.conf")],
                 'object NotificationComponent "notification" { }\n'
                 'object User "tw-admin" { }\n'
                 'object Service %s {\n\thost_name = "tw-host"\n'
                 '\tcheck_command = "tunewatch-dblock"\n\tvars.tunewatch_port = %d\n'
                 '\tmax_check_attempts = 1\n\tcheck_interval = 1s\n\tretry_interval = 1s\n}\n'
                 'object Notification "tuning ticket" {\n\thost_name = "tw-host"\n'
                 '\tservice_name = %s\n\tcommand = "tunewatch-rt"\n'
                 '\tusers = [ "tw-admin" ]\n\ttypes = [ Problem, Recovery ]\n\tinterval = 3s\n'
                 '\tvars.tunewatch_ticket_dir = %s\n\tvars.tunewatch_rt_url = %s\n'
                 '\tvars.tunewatch_rt_token_file = %s\n}\n'
                 % (json.dumps(SERVICE), h.port, json.dumps(SERVICE), json.dumps(NOTIFY_DIR),
                    json.dumps(rt.url), json.dumps(rt.token_file)))
        text = ic.validate()
        assert "Instantiated 1 NotificationCommand" in text, text
        try:
            with ic.running():
                n = problems(h, rt, root, drops)
            # Icinga 2 is stopped: only the trap can evaluate what follows.
            resolution(h, rt, root, drops, n, start_trapd(h, rt, trap_port))
        finally:
            drops.stop.set()
        race(h, rt)
        sys.stdout.write("RT set up and started in %.1f s\n" % setup_s)


def problems(h, rt, root, drops):
    """Steps 1 to 5, with Icinga 2 running and no trap receiver: the
    ticket's number."""
    # 1. Drops: one ticket, with the check's advice and lines.
    drops.rate = 50
    twtest.wait_for("a ticket in RT", lambda: kept(rt), timeout=60, step=1.0)
    out = pc.run("check_dblock", ["-p", str(h.port)])
    fid = None
    for i, line in enumerate(out.long):
        if line.startswith("tune: net.core.netdev_max_backlog "):
            fid = out.long[i + 1].split()[1]
            apply_line, persist_line = out.long[i + 2], out.long[i + 3]
    assert fid, out
    tickets = kept(rt)
    assert len(tickets) == 1, tickets
    n = int(tickets[0]["id"])
    cf = {c["name"]: c["values"] for c in tickets[0]["CustomFields"]}
    assert cf["TunewatchKey"] == ["tw-host!%s!%s" % (SERVICE, fid)], cf
    assert cf["TunewatchTunable"] == ["net.core.netdev_max_backlog"], cf
    assert cf["TunewatchAddress"] == ["127.0.0.1"], cf
    assert tickets[0]["Subject"].startswith("[tunewatch] tw-host %s: net.core.netdev_max_backlog "
                                            % SERVICE), tickets[0]
    body = [text for kind, text, _, _ in rt.history(n) if kind == "Create"][0]
    # The suggestion is sized from the drops in the window, so the check run
    # now may suggest more than the notification that opened the ticket did:
    # the ticket must carry its own notification's value in every line, in
    # the form the check prints.
    m = re.search(r"^Advice: tune: net\.core\.netdev_max_backlog 1000 -> (\d+) ", body, re.M)
    assert m and int(m.group(1)) >= 2000, body
    value = m.group(1)
    assert apply_line.startswith("  apply: sysctl -w net.core.netdev_max_backlog="), apply_line
    assert persist_line.startswith("  persist: /etc/sysctl.d/90-tunewatch.conf: "
                                   "net.core.netdev_max_backlog = "), persist_line
    assert "Apply now: sysctl -w net.core.netdev_max_backlog=%s\n" % value in body, body
    assert ("Make persistent: /etc/sysctl.d/90-tunewatch.conf: net.core.netdev_max_backlog = %s\n"
            % value) in body, body
    assert "never by a recovery" in body, body
    say("1. ticket %d opened for %s with its advice, apply and persist lines" % (n, fid))

    # 2. A repeat: a comment, still one ticket.
    wait_comment(rt, n, "a repeat's comment", r"^Seen again, WARNING \(PROBLEM\)", 0)
    assert len(kept(rt)) == 1
    say("2. a repeat notification commented on it")

    # 3. Recovery: a comment, the ticket stays open.
    drops.rate = 0
    seen = len(comments(rt, n))
    wait_comment(rt, n, "the recovery's comment", r"^The check recovered, OK", seen,
                 timeout=WINDOW + 60)
    assert status(rt, n) in ("new", "open"), status(rt, n)
    assert len(kept(rt)) == 1
    say("3. the recovery commented on it and left it %s" % status(rt, n))

    # 4. The symptom comes back: the same ticket.
    seen = len(comments(rt, n))
    drops.rate = 50
    wait_comment(rt, n, "a comment on the problem's return", r"^Seen again, WARNING", seen)
    assert len(kept(rt)) == 1
    say("4. the symptom came back: commented on the same ticket")

    # 5. A change that does not help: the drops double.
    seen = len(comments(rt, n))
    write(root, "sys/net/core/netdev_max_backlog", "1500\n")
    drops.rate = 100
    c = wait_comment(rt, n, "the first change's evaluation",
                     r"^Change evaluated: net\.core\.netdev_max_backlog 1000 -> 1500", seen,
                     timeout=WINDOW + 60)
    m = re.search(r"cpu1 backlog: ([0-9.]+) failures/min before the change, ([0-9.]+) "
                  r"failures/min after", c)
    assert m and float(m.group(2)) > float(m.group(1)) > 0, c
    assert "did not help" in c and status(rt, n) in ("new", "open"), (c, status(rt, n))
    say("5. 1000 -> 1500: %s -> %s failures/min, commented, left open" % m.groups())

    assert "(the check's change: line)" in c, c
    return n


def resolution(h, rt, root, drops, n, trapd):
    """Step 6, with Icinga 2 stopped and snmptrapd running."""
    # 6. A change that helps: no drop since.
    seen = len(comments(rt, n))
    write(root, "sys/net/core/netdev_max_backlog", "3000\n")
    drops.rate = 0
    c = wait_comment(rt, n, "the second change's evaluation",
                     r"^Change evaluated: net\.core\.netdev_max_backlog 1500 -> 3000", seen,
                     timeout=WINDOW + 60)
    m = re.search(r"cpu1 backlog: ([0-9.]+) failures/min before the change, 0 failures/min "
                  r"after", c)
    assert m and float(m.group(1)) > 0 and "helped" in c, c
    assert "(twTunableChangeEvaluated from 127.0.0.1)" in c, c
    twtest.wait_for("the ticket resolved", lambda: status(rt, n) == "resolved", timeout=10)
    say("6. 1500 -> 3000: %s -> 0 failures/min, resolved" % m.group(1))
    time.sleep(4)
    all_comments = comments(rt, n)
    for change in ("1000 -> 1500", "1500 -> 3000"):
        k = [x for x in all_comments if x.startswith("Change evaluated: "
                                                     "net.core.netdev_max_backlog " + change)]
        assert len(k) == 1, "noted %d times: %s" % (len(k), change)
    assert status(rt, n) == "resolved" and len(kept(rt)) == 1
    say("the ticket's comments: %d; tunewatch-rt --trap said:\n%s" % (
        len(all_comments), read(os.path.join(h.dir, "trap-rt.log"))))


# A check's output for a finding of another host (step 7).
RACE_OUTPUT = """DBLOCK WARNING - cpu1 backlog 152 failures in the last 60 s
cpu1 backlog: WARNING, 152 failures in the last 60 s (packet dropped: the CPU's input queue was full); in use 5 of 1000
tune: net.core.netdev_max_backlog 1000 -> 2000 (cpu1 dropped 152 packets in the last 60 s; Documentation/admin-guide/sysctl/net.rst)
  finding: tw-f8a17a3f7d16
  apply: sysctl -w net.core.netdev_max_backlog=2000
  persist: /etc/sysctl.d/90-tunewatch.conf: net.core.netdev_max_backlog = 2000"""


def race(h, rt, runs=6):
    """7. One problem notification of another host's finding filed by six
    tunewatch-rt at the same moment (Icinga 2 sends a repeat while the first
    is still being filed: at a load of 20 the test's own two notifications
    opened two tickets): one ticket stays open, any other is rejected and
    points to it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TW_", "NAGIOS_"))}
    env.update({"TW_HOST": "tw-race", "TW_SERVICE": SERVICE, "TW_STATE": "WARNING",
                "TW_NOTIFICATION_TYPE": "PROBLEM", "TW_OUTPUT": RACE_OUTPUT})
    r = subprocess.run([sys.executable, os.path.join(NOTIFY_DIR, "tunewatch-ticket"),
                        "--format", "json"], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0 and '"tickets"' in r.stdout, r
    path = os.path.join(h.dir, "race.json")
    with open(path, "w") as fh:
        fh.write(r.stdout)
    key = "tw-race!%s!tw-f8a17a3f7d16" % SERVICE
    argv = [sys.executable, os.path.join(NOTIFY_DIR, "tunewatch-rt"), "--url", rt.url,
            "--token-file", rt.token_file, "--json", path]
    procs = [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(runs)]
    outs = [p.communicate(timeout=120) + (p.returncode,) for p in procs]
    assert all(rc == 0 for _, _, rc in outs), outs
    mine = [t for t in rt.tickets()
            if key in {v for c in t["CustomFields"] for v in c.get("values", [])}]
    open_ = [t for t in mine if t["Status"] != "rejected"]
    assert len(open_) == 1, (mine, outs)
    n = int(open_[0]["id"])
    for t in mine:
        if t is not open_[0]:
            assert [c for c in comments(rt, int(t["id"])) if "as ticket %d: rejected" % n in c], t
    say("7. %d tunewatch-rt at once: %d tickets opened, ticket %d kept, %d rejected" % (
        runs, len(mine), n, len(mine) - 1))


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    twtest.main(test)
