#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""tunewatchd's settings and manners: tunewatchd.conf read through Net-SNMP's
configuration API (-C -c FILE, and found in the configuration path, as
the packaged unit finds /etc/snmp/tunewatchd.conf), the command line winning over it, disk
include and exclude expressions, bad options and settings refused with one
line and a sysexits code, the MIB read-only (a SET is refused), no MIB file
loaded (no "Cannot find module" noise), --user giving up root, -Lsd
logging to syslog under tunewatchd's own name, and this
machine's real /proc giving a sane disk table."""

import os
import pwd
import re
import shutil
import socket
import subprocess
import time

import twtest
from twtest import as_dict, column, oid


def agent_exit(h, args):
    r = subprocess.run([h.agent_bin, "-f", "-Le", "-C"] + args, capture_output=True, text=True,
                       timeout=20)
    return r.returncode, r.stdout + r.stderr


def test_options(h):
    code, out = agent_exit(h, ["--interval", "0"])
    assert code == 64 and out.count("\n") == 1 and "--interval" in out, (code, out)
    code, out = agent_exit(h, ["--bogus"])
    assert code == 64 and "unknown option '--bogus'" in out, (code, out)
    code, out = agent_exit(h, ["--interval", "10", "--window", "5", "-x", h.socket])
    assert code == 78 and "shorter than the interval" in out, (code, out)
    code, out = agent_exit(h, ["--proc-root", "/nonexistent", "-x", h.socket])
    assert code == 71 and "/nonexistent" in out, (code, out)
    conf = os.path.join(h.dir, "bad.conf")
    with open(conf, "w") as fh:
        fh.write("diskInclude ([unclosed\n")
    code, out = agent_exit(h, ["-c", conf, "-x", h.socket])
    assert code == 78 and "bad include expression" in out, (code, out)
    code, out = agent_exit(h, ["--user", "no-such-user-here", "-x", h.socket])
    assert code == 67 and "no such user" in out, (code, out)


def test_config_file(h, root):
    conf = os.path.join(h.dir, "tunewatchd.conf")
    with open(conf, "w") as fh:
        fh.write("# settings as an administrator writes them\n"
                 "interval 30\nwindow 120\n"
                 "procRoot %s/proc\nsysRoot %s/sys\n"
                 "diskInclude ^sd\ndiskInclude ^loop\n"
                 "diskExclude ^sda1$\n" % (root, root))
    # The command line wins for the window; the file gives the rest.
    h.start_agent(None, None, interval=None, window=None, args=["-c", conf, "--window", "90"])
    v = as_dict(h.walk())
    assert v[oid("AGENT_INTERVAL")].num == 30 and v[oid("AGENT_WINDOW")].num == 90
    names = sorted(x.text for x in column(v, "DISK_NAME").values())
    # sd* and loop* are included; sda1 is excluded; nvme0n1 is not included.
    assert names == ["loop0", "sda"], names
    with open(os.path.join(h.dir, "tunewatchd.log")) as fh:
        log = fh.read()
    assert "Cannot find module" not in log and "MIB search path" not in log, log
    # A SET is refused: the MIB is read-only.
    r = h.run_client(["snmpset", "-v2c", "-c", "public", "-m", "", "127.0.0.1:%d" % h.port,
                      oid("AGENT_INTERVAL"), "u", "5"])
    assert r.returncode != 0 and ("notWritable" in r.stderr + r.stdout or
                                  "noAccess" in r.stderr + r.stdout), r.stderr
    h.stop(h.agent)


def test_config_path(h, root):
    """tunewatchd.conf found where Net-SNMP looks (SNMPCONFPATH; /etc/snmp
    for the packaged agent under systemd, whose unit passes no -c), with
    nothing of Net-SNMP's persistent state read or written."""
    confdir = os.path.join(h.dir, "confpath")
    persist = os.path.join(h.dir, "persist-path")
    os.makedirs(confdir)
    os.makedirs(persist)
    with open(os.path.join(confdir, "tunewatchd.conf"), "w") as fh:
        fh.write("interval 30\nwindow 120\nprocRoot %s/proc\nsysRoot %s/sys\n" % (root, root))
    env = dict(os.environ, SNMPCONFPATH=confdir, SNMP_PERSISTENT_DIR=persist)
    h.agent = subprocess.Popen(h.wrap + [h.agent_bin, "-f", "-Lo", "-x", h.socket],
                               stdout=h.log("tunewatchd-confpath"), stderr=subprocess.STDOUT,
                               env=env)
    h.procs.append(h.agent)
    h.wait_agent()
    v = as_dict(h.walk())
    assert v[oid("AGENT_INTERVAL")].num == 30 and v[oid("AGENT_WINDOW")].num == 120, \
        "tunewatchd.conf in SNMPCONFPATH was not read: interval %d, window %d" % (
            v[oid("AGENT_INTERVAL")].num, v[oid("AGENT_WINDOW")].num)
    h.stop(h.agent)
    # Net-SNMP makes its empty cert_indexes folder there; no file.
    files = [os.path.join(d, f) for d, _, fs in os.walk(persist) for f in fs]
    assert files == [], "persistent state written: %s" % files


def test_user(h, root):
    if os.geteuid() != 0:
        print("not root: --user not tested")
        return
    nobody = pwd.getpwnam("nobody")
    h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                  window=300, args=["--user", "nobody"])
    with open("/proc/%d/status" % h.agent.pid) as fh:
        status = dict(l.split(":", 1) for l in fh if ":" in l)
    uids = status["Uid"].split()
    gids = status["Gid"].split()
    assert all(int(u) == nobody.pw_uid for u in uids), uids
    assert all(int(g) == nobody.pw_gid for g in gids), gids
    # Still serving, from the roots it opened as root.
    h.sample_now()
    assert h.agent_samples() == 2
    h.stop(h.agent)


# In a mount namespace of its own: /dev a tmpfs with the few devices a
# process needs bound from the real one, and /dev/log the test's socket.
# Nothing of the host's mounts changes (unshare makes them private).
OWN_DEVLOG = ('mount --bind /dev "$1" && mount -t tmpfs tw-dev /dev && '
              'for f in null zero random urandom; do '
              'touch /dev/$f && mount --bind "$1/$f" /dev/$f || exit 1; done && '
              'touch /dev/log && mount --bind "$2" /dev/log && shift 2 && exec "$@"')
SYSLOG_LINE = re.compile(r"^<(\d+)>\w{3} [ \d]\d \d\d:\d\d:\d\d ([^\[: ]+)")


def test_syslog_name(h, root):
    """-Lsd, as the packaged unit logs: to syslog, facility daemon, under
    tunewatchd's own name (the journal's SYSLOG_IDENTIFIER; Net-SNMP's
    default is "net-snmp", which the Debian guest's journal showed)."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        print("not root or no unshare: the syslog name not tested")
        return
    old = os.path.join(h.dir, "olddev")
    os.mkdir(old)
    path = os.path.join(h.dir, "devlog")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(0.5)
    agent = subprocess.Popen(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", OWN_DEVLOG, "sh", old,
         path, h.agent_bin, "-f", "-Lsd", "-C", "-x", h.socket, "--interval", "60",
         "--window", "300", "--proc-root", os.path.join(root, "proc"),
         "--sys-root", os.path.join(root, "sys")],
        stdout=h.log("tunewatchd-syslog"), stderr=subprocess.STDOUT)
    h.procs.append(agent)
    lines = []
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline and not any("sampling every" in l for l in lines):
            assert agent.poll() is None, "tunewatchd -Lsd exited %s" % agent.returncode
            try:
                lines.append(sock.recv(4096).decode(errors="replace"))
            except socket.timeout:
                pass
    finally:
        h.stop(agent)
        sock.close()
    assert any("sampling every" in l for l in lines), lines
    for line in lines:
        m = SYSLOG_LINE.match(line)
        assert m and m.group(2) == "tunewatchd", "not under tunewatchd's name: %r" % line
        assert int(m.group(1)) >> 3 == 3, "not facility daemon: %r" % line


def test_real_proc(h):
    h.start_agent(None, None, interval=60, window=300)
    # Read before the agent's second sample: its counters can only be higher.
    with open("/proc/diskstats") as fh:
        kernel = {f[2]: f for f in (l.split() for l in fh)}
    h.sample_now()
    v = as_dict(h.walk())
    rows = {i: x.text for i, x in column(v, "DISK_NAME").items()}
    assert rows, "no disk in the table"
    for index, name in rows.items():
        assert name in kernel, name
        assert not name.startswith(("loop", "ram", "zram")), name
        major, minor = index.split(".")
        assert kernel[name][0] == major and kernel[name][1] == minor, (name, index)
        reads = v[oid("DISK_READS", index)].num
        assert reads >= int(kernel[name][3]), "%s reads went back" % name
        util = v[oid("DISK_UTIL", index)].num
        assert 0 <= util <= 10000 * 1.05, "%s util %d" % (name, util)
        assert v[oid("DISK_READ_LATENCY", index)].num < 60 * 1000 * 1000, \
            "%s r_await over a minute" % name
    assert v[oid("BC_MEM_TOTAL")].num > 0
    assert v[oid("BC_CACHED")].num <= v[oid("BC_MEM_TOTAL")].num
    h.stop(h.agent)


def test():
    with twtest.Harness("agent-config") as h:
        root = h.copy_fixture("agent")
        test_options(h)
        h.start_snmpd()
        test_config_file(h, root)
        test_config_path(h, root)
        test_user(h, root)
        test_syslog_name(h, root)
        test_real_proc(h)


if __name__ == "__main__":
    twtest.main(test)
