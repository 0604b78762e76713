#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""The notification programs write their spools as root, in directories
another user may write to: they must never follow a link that user
planted, write into a file of theirs, or copy a mode from what a path
points at (issue 34).

Run as root, with fs.protected_symlinks 0 for the test's duration (as many
containers have it; restored in a finally), and with the real user
`nobody` planting what they may plant in a sticky, world-writable spool
directory (as /tmp is):

- tunewatch-ticket --append, with the lock a link to where root would
  create a file and the spool a link to /dev/null (whose mode, 0666, the
  spool once took, after which nobody appended a forged ticket): exit 2
  with one line, no file made where the link pointed, /dev/null untouched,
  the links as they were;
- the spool a link alone, the spool a file of nobody's (mode 0666), the
  spool a FIFO (which once made the program wait for good): each refused,
  exit 2, nothing written;
- a world-writable directory without the sticky bit: refused, nothing made
  in it; a directory that is absent (its parent there): made 0700, the
  spool 0600; an existing spool of root's that is 0666 loses its
  world-write bit;
- tunewatch-alertmanager --append with the spool a link to a root file:
  the webhook answers 502 and the root file is as it was; into an absent
  directory: 200, made 0700, the spool 0600 with the document.

Skipped without root or without the user nobody."""

import contextlib
import json
import os
import pwd
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import promtest
import twtest

NOTIFY = os.path.join(twtest.TOP_SRCDIR, "contrib", "notify")
TICKET = os.path.join(NOTIFY, "tunewatch-ticket")
ALERTMANAGER = os.path.join(NOTIFY, "tunewatch-alertmanager")
PROTECTED = "/proc/sys/fs/protected_symlinks"
ENV = {"TW_HOST": "web1", "TW_SERVICE": "dblock", "TW_STATE": "WARNING",
       "TW_OUTPUT": "DBLOCK WARNING - x\nno tunable: y\n  finding: tw-00000000000a"}


@contextlib.contextmanager
def symlinks_followed():
    """fs.protected_symlinks 0 while the test runs, as it was after."""
    with open(PROTECTED) as fh:
        was = fh.read().strip()
    try:
        if was != "0":
            with open(PROTECTED, "w") as fh:
                fh.write("0")
        yield was
    finally:
        if was != "0":
            with open(PROTECTED, "w") as fh:
                fh.write(was)


def as_nobody(user, fn):
    """Run fn() in a child that is the user nobody."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)
            fn()
            os._exit(0)
        except BaseException as e:	# pylint: disable=broad-except
            sys.stderr.write("as nobody: %r\n" % e)
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    assert status == 0, "nobody could not plant"


def ticket(spool):
    """tunewatch-ticket --append spool as root: (exit status, stderr)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TW_", "NAGIOS_"))}
    env.update(ENV)
    r = subprocess.run(["python3", TICKET, "--format", "json", "--append", spool],
                       capture_output=True, text=True, env=env, timeout=30)
    return r.returncode, r.stderr


def refused(spool, why):
    rc, err = ticket(spool)
    assert rc == 2 and err.count("\n") == 1 and "Traceback" not in err, (why, rc, err)
    print("%s: refused: %s" % (why, err.strip()))


def snapshot(d):
    """What d holds: name -> (kind, link target or size, owner)."""
    out = {}
    for name in os.listdir(d):
        st = os.lstat(os.path.join(d, name))
        target = os.readlink(os.path.join(d, name)) if stat.S_ISLNK(st.st_mode) else st.st_size
        out[name] = (stat.S_IFMT(st.st_mode), target, st.st_uid)
    return out


def check_ticket(top, nobody):
    spool_dir = os.path.join(top, "spool")
    os.mkdir(spool_dir)
    os.chmod(spool_dir, 0o1777)
    elsewhere = os.path.join(top, "root-only")
    os.mkdir(elsewhere, 0o755)
    target = os.path.join(elsewhere, "made-by-root")
    spool = os.path.join(spool_dir, "tickets.json")
    null_mode = os.stat("/dev/null").st_mode

    # The planted lock and spool of the report.
    as_nobody(nobody, lambda: (os.symlink(target, spool + ".lock"),
                               os.symlink("/dev/null", spool)))
    before = snapshot(spool_dir)
    refused(spool, "a link as the lock and one as the spool")
    assert not os.path.lexists(target), "root made a file where nobody's link pointed"
    assert os.stat("/dev/null").st_mode == null_mode
    assert snapshot(spool_dir) == before, (before, snapshot(spool_dir))

    # The spool's link alone (the lock is root's own now).
    os.unlink(spool + ".lock")
    refused(spool, "a link as the spool")
    assert os.path.islink(spool) and os.stat("/dev/null").st_mode == null_mode
    assert not [n for n in os.listdir(spool_dir) if n.startswith(".tunewatch-ticket-")]
    os.unlink(spool)

    # A spool that nobody made, open to all; then a FIFO.
    def plant_file():
        with open(spool, "w") as fh:
            fh.write("forged\n")
        os.chmod(spool, 0o666)
    as_nobody(nobody, plant_file)
    refused(spool, "a spool of nobody's")
    with open(spool) as fh:
        assert fh.read() == "forged\n"
    as_nobody(nobody, lambda: (os.unlink(spool), os.mkfifo(spool, 0o666)))
    t0 = time.monotonic()
    refused(spool, "a FIFO as the spool")
    assert time.monotonic() - t0 < 20

    # Anyone may write and there is no sticky bit: refused, nothing made.
    open_dir = os.path.join(top, "open")
    os.mkdir(open_dir)
    os.chmod(open_dir, 0o777)
    refused(os.path.join(open_dir, "tickets.json"), "a world-writable directory")
    assert os.listdir(open_dir) == []

    # An absent directory is made 0700, the spool 0600; root's own spool
    # at 0666 loses the bit that let anyone write to it.
    fresh = os.path.join(top, "fresh", "tickets.json")
    rc, err = ticket(fresh)
    assert rc == 0 and err == "", (rc, err)
    assert stat.S_IMODE(os.stat(os.path.dirname(fresh)).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(fresh).st_mode) == 0o600
    with open(fresh) as fh:
        assert json.loads(fh.read())["tickets"][0]["finding"] == "tw-00000000000a"
    os.chmod(fresh, 0o666)
    rc, err = ticket(fresh)
    assert rc == 0 and stat.S_IMODE(os.stat(fresh).st_mode) == 0o664, (rc, err)
    with open(fresh) as fh:
        assert len(fh.read().splitlines()) == 2


ALERT = {"alerts": [{"status": "firing", "labels": {
    "alertname": "TunewatchFindingWarning", "instance": "web1", "twFindingId": "tw-00000000000b",
    "twFindingSymptom": "udp-rcvbuf", "twFindingSubject": "udp memory"},
    "annotations": {"summary": "s", "evidence": "e"}}]}


def post(port):
    req = urllib.request.Request("http://127.0.0.1:%d/" % port, data=json.dumps(ALERT).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


@contextlib.contextmanager
def webhook(spool, log):
    port = promtest.free_tcp_port()
    p = subprocess.Popen(["python3", ALERTMANAGER, "--listen", "127.0.0.1:%d" % port,
                          "--append", spool], stdout=log, stderr=subprocess.STDOUT)
    try:
        twtest.wait_for("tunewatch-alertmanager listening",
                        lambda: p.poll() is not None or "listening" in open(log.name).read())
        assert p.poll() is None, open(log.name).read()
        yield port
    finally:
        p.terminate()
        p.wait(timeout=10)


def check_alertmanager(top, nobody):
    spool_dir = os.path.join(top, "am-spool")
    os.mkdir(spool_dir)
    os.chmod(spool_dir, 0o1777)
    secret = os.path.join(top, "root-file")
    with open(secret, "w") as fh:
        fh.write("root's own\n")
    os.chmod(secret, 0o600)
    spool = os.path.join(spool_dir, "alerts.json")
    as_nobody(nobody, lambda: os.symlink(secret, spool))
    with open(os.path.join(top, "am.log"), "w") as log, webhook(spool, log) as port:
        code = post(port)
    assert code == 502, code
    with open(secret) as fh:
        assert fh.read() == "root's own\n", "JSON appended through nobody's link"
    fresh = os.path.join(top, "am-fresh", "alerts.json")
    with open(os.path.join(top, "am2.log"), "w") as log, webhook(fresh, log) as port:
        code = post(port)
    assert code == 200, code
    assert stat.S_IMODE(os.stat(os.path.dirname(fresh)).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(fresh).st_mode) == 0o600
    with open(fresh) as fh:
        assert json.loads(fh.readline())["tickets"][0]["finding"] == "tw-00000000000b"
    print("tunewatch-alertmanager: 502 for nobody's link, 200 into a directory it made 0700")


def test():
    if os.geteuid() != 0:
        raise twtest.Skip("needs root: the programs run as root, and nobody plants the links")
    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        raise twtest.Skip("no user nobody")
    top = tempfile.mkdtemp(prefix="tw-notify-spool-")
    os.chmod(top, 0o755)
    try:
        with symlinks_followed() as was:
            print("fs.protected_symlinks was %s, 0 while the test runs" % was)
            check_ticket(top, nobody)
            check_alertmanager(top, nobody)
    finally:
        shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    twtest.main(test)
