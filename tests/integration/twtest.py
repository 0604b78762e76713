# SPDX-License-Identifier: ISC
"""Harness for tunewatch's integration tests.

Each test starts its own snmpd on 127.0.0.1 at a free high port, with
-I -smux (Debian's snmpd otherwise opens TCP port 199 on every address), a
generated configuration (-C -c), `master agentx` and an AgentX socket in a
temporary directory, and its own tunewatchd behind it. Nothing of the
system's snmpd, nor ports 161 and 199, is touched. Everything started is
stopped when the test ends, whether it passes, fails or is interrupted.

Exit codes follow automake: 0 pass, 1 fail, 77 skip, 99 hard error.
"""

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

SKIP = 77

TOP_SRCDIR = os.environ.get("top_srcdir", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
TOP_BUILDDIR = os.environ.get("top_builddir", os.getcwd())
FIXTURES = os.path.join(TOP_SRCDIR, "tests", "fixtures")

SYS_UPTIME = "1.3.6.1.2.1.1.3.0"


def _header_numbers():
    """The numbers of mib/tunewatch_oids.h, read once: tests name objects
    by the header's macros, as the C code does, never by number."""
    nums = {}
    with open(os.path.join(TOP_SRCDIR, "mib", "tunewatch_oids.h")) as fh:
        for line in fh:
            m = re.match(r"\s*#\s*define\s+(TW_\w+)\s+([0-9][0-9, ]*)", line)
            if m:
                nums[m.group(1)] = [int(x) for x in m.group(2).split(",")]
    return nums


_H = _header_numbers()
ARC = ".".join(str(x) for x in _H["TW_MIB_ARC"])
OBJECTS = "%s.%d" % (ARC, _H["TW_OID_OBJECTS"][0])

# The macros' prefixes, and where their objects sit below twObjects:
# (group macro, entry macro or None for scalars).
_PLACES = {
    "AGENT": ("TW_OID_AGENT", None),
    "BC": ("TW_OID_BUFCACHE", None),
    "DBLOCK": ("TW_OID_DBLOCK_TABLE", "TW_OID_DBLOCK_ENTRY"),
    "DISK": ("TW_OID_DISK_TABLE", "TW_OID_DISK_ENTRY"),
    "TUNABLE": ("TW_OID_TUNABLE_TABLE", "TW_OID_TUNABLE_ENTRY"),
    "CHANGE": ("TW_OID_CHANGE_TABLE", "TW_OID_CHANGE_ENTRY"),
    "SOCKDROP": ("TW_OID_SOCKDROP_TABLE", "TW_OID_SOCKDROP_ENTRY"),
    "PROBE": ("TW_OID_PROBE_TABLE", "TW_OID_PROBE_ENTRY"),
    "CGROUP": ("TW_OID_CGROUP_TABLE", "TW_OID_CGROUP_ENTRY"),
    "REQLAT": ("TW_OID_REQLAT_TABLE", "TW_OID_REQLAT_ENTRY"),
    "REQHIST": ("TW_OID_REQHIST_TABLE", "TW_OID_REQHIST_ENTRY"),
}


def oid(name, index="0"):
    """The OID of an object's instance, named by its macro without TW_OID_:
    oid("BC_REFAULTS") is twBcRefaults.0, oid("DISK_READ_LATENCY", "8.0")
    twDiskReadLatency.8.0; with index None, the object itself (a column
    to walk, or the prefix of its instances)."""
    group, entry = _PLACES[name.split("_")[0]]
    parts = [OBJECTS, str(_H[group][0])]
    if entry is not None:
        parts.append(str(_H[entry][0]))
    parts.append(str(_H["TW_OID_" + name][0]))
    if index is not None:
        parts.append(str(index))
    return ".".join(parts)


def column(v, name):
    """The instances of column name in a walk's {oid: value}, by index."""
    prefix = oid(name, None) + "."
    return {o[len(prefix):]: x for o, x in v.items() if o.startswith(prefix)}


class Skip(Exception):
    """The test cannot run here; the message says why."""


def which(prog, extra=("/usr/sbin", "/sbin")):
    path = shutil.which(prog)
    if path:
        return path
    for d in extra:
        p = os.path.join(d, prog)
        if os.access(p, os.X_OK):
            return p
    return None


def standin_mib_dir():
    """tests/mibs: stand-ins, written for the tests, for what TUNEWATCH-MIB
    imports of the IETF base modules (tests/mibs/README.md)."""
    return os.path.join(TOP_SRCDIR, "tests", "mibs")


def base_mib_dirs():
    """Where the IETF base modules are, or None (see shared/mibs/README.md)."""
    for d in (os.path.join(TOP_SRCDIR, "..", "shared", "mibs"), "/usr/share/snmp/mibs/ietf"):
        if os.path.exists(os.path.join(d, "SNMPv2-SMI.txt")) or os.path.exists(os.path.join(d, "SNMPv2-SMI")):
            return os.path.abspath(d)
    return None


def cold_file(path, mib):
    """mib MiB of random data at path, written back to disk and dropped from
    the page cache, so that reading it goes to the device (and is charged
    to the reader's cgroup)."""
    block = os.urandom(1 << 20)
    with open(path, "wb") as fh:
        for _ in range(mib):
            fh.write(block)
        fh.flush()
        os.fsync(fh.fileno())
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def _free_port(kind, proto):
    """A port of socket type kind on 127.0.0.1 that nothing holds right
    now, at or above 10000."""
    for _ in range(50):
        s = socket.socket(socket.AF_INET, kind)
        try:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        finally:
            s.close()
        if port >= 10000:
            return port
    raise RuntimeError("no free %s port found on 127.0.0.1" % proto)


def free_port():
    """A UDP port on 127.0.0.1 that nothing holds right now."""
    return _free_port(socket.SOCK_DGRAM, "UDP")


def free_tcp_port():
    """A TCP port on 127.0.0.1 that nothing holds right now."""
    return _free_port(socket.SOCK_STREAM, "TCP")


def wait_for(what, predicate, timeout=10.0, step=0.05):
    """Poll predicate until it returns a true value; bounded."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out after %.1f s waiting for %s" % (timeout, what))
        time.sleep(step)


class Value:
    """One varbind as snmpget/snmpwalk print it with -On -Oe."""

    def __init__(self, oid, type_, text):
        self.oid = oid
        self.type = type_
        self.text = text

    @property
    def num(self):
        return int(self.text)

    def __repr__(self):
        return "%s = %s: %s" % (self.oid, self.type, self.text)


_LINE = re.compile(r'^(\S+) = (?:([A-Za-z0-9-]+): )?(.*)$')


def parse_varbinds(output):
    values = []
    for line in output.splitlines():
        m = _LINE.match(line)
        if not m:
            # A continuation of a multi-line string value.
            if values:
                values[-1].text += "\n" + line
            continue
        oid, type_, text = m.group(1), m.group(2) or "", m.group(3)
        if type_ == "STRING" and text.startswith('"') and text.endswith('"'):
            text = text[1:-1]
        values.append(Value(oid.lstrip("."), type_, text))
    return values


def listening_sockets(wrap=()):
    """The lines of `ss -H -l -n -p -u -t` (run under wrap, e.g. a netns),
    or none where ss is missing. Other users' process names are any bytes
    (a comm need not be UTF-8: names_forged makes such), and ss prints them
    as they are: decoded with escapes, never an error."""
    ss = which("ss")
    if not ss:
        return []
    return subprocess.run(list(wrap) + [ss, "-H", "-l", "-n", "-p", "-u", "-t"],
                          capture_output=True, text=True,
                          errors="backslashreplace").stdout.splitlines()


class Harness:
    def __init__(self, name, wrap=()):
        self.name = name
        # A command every process of the harness runs under: the lab's
        # `ip netns exec NAME` runs snmpd, tunewatchd and the clients in a
        # network namespace (ip execs the command, so pids stay the same).
        self.wrap = list(wrap)
        self.dir = tempfile.mkdtemp(prefix="tw-%s-" % name)
        self.procs = []
        self.snmpd = None
        self.agent = None
        self.port = None
        self.socket = os.path.join(self.dir, "agentx.sock")
        self.snmpd_bin = which("snmpd") or os.environ.get("SNMPD") or None
        self.snmpget_bin = which("snmpget")
        self.snmpwalk_bin = which("snmpwalk")
        self.snmpbulkwalk_bin = which("snmpbulkwalk")
        self.agent_bin = os.path.join(TOP_BUILDDIR, "agentx", "tunewatchd")
        if not self.snmpd_bin or not self.snmpget_bin or not self.snmpwalk_bin:
            raise Skip("snmpd and the snmp tools are needed (Debian: apt-get install snmpd snmp)")

    # ---- lifecycle -----------------------------------------------------

    def __enter__(self):
        signal.signal(signal.SIGTERM, self._on_signal)
        return self

    def __exit__(self, *exc):
        self.stop_all()
        if exc[0] is None and not os.environ.get("TW_KEEP"):
            shutil.rmtree(self.dir, ignore_errors=True)
        elif exc[0] is not None:
            self.dump_logs()
        return False

    def _on_signal(self, signum, frame):
        self.stop_all()
        sys.exit(99)

    def stop(self, proc, sig=signal.SIGTERM, timeout=5.0):
        if proc is None or proc.poll() is not None:
            return
        try:
            proc.send_signal(sig)
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=timeout)

    def stop_all(self):
        for p in reversed(self.procs):
            self.stop(p)
        self.procs = []

    def dump_logs(self):
        for f in sorted(os.listdir(self.dir)):
            if f.endswith(".log"):
                path = os.path.join(self.dir, f)
                with open(path, errors="replace") as fh:
                    text = fh.read()
                sys.stderr.write("---- %s ----\n%s\n" % (path, text[-4000:]))

    def log(self, name):
        return open(os.path.join(self.dir, name + ".log"), "ab")

    # ---- snmpd -------------------------------------------------------------

    def snmpd_conf(self, extra=""):
        return (
            "agentaddress udp:127.0.0.1:%d\n"
            "master agentx\n"
            "agentXSocket %s\n"
            "agentXPerms 0777 0755\n"
            "agentXTimeout 1\n"
            "rocommunity public 127.0.0.1\n"
            "%s" % (self.port, self.socket, extra)
        )

    def start_snmpd(self, extra_conf="", keep_port=False):
        if not keep_port or self.port is None:
            self.port = free_port()
        conf = os.path.join(self.dir, "snmpd.conf")
        with open(conf, "w") as fh:
            fh.write(self.snmpd_conf(extra_conf))
        env = dict(os.environ, SNMP_PERSISTENT_DIR=os.path.join(self.dir, "persist"), MIBS="")
        self.snmpd = subprocess.Popen(
            self.wrap + [self.snmpd_bin, "-f", "-Lo", "-C", "-c", conf, "-I", "-smux", "-m", "",
             "-p", os.path.join(self.dir, "snmpd.pid")],
            stdout=self.log("snmpd"), stderr=subprocess.STDOUT, env=env)
        self.procs.append(self.snmpd)
        wait_for("snmpd to answer on 127.0.0.1:%d" % self.port,
                 lambda: self.snmpd.poll() is None and self.try_get([SYS_UPTIME]) is not None)
        self.check_listeners(self.snmpd.pid)
        return self.snmpd

    def check_listeners(self, pid):
        """Nothing of snmpd listens beyond 127.0.0.1 (no smux on port 199)."""
        for line in listening_sockets(self.wrap):
            if "pid=%d," % pid not in line:
                continue
            # Netid State Recv-Q Send-Q Local Peer Process
            fields = line.split()
            local = fields[4] if len(fields) > 4 else ""
            assert local.startswith("127.0.0.1:"), "snmpd listens on %s: %s" % (local, line)
            assert not local.endswith(":199"), "snmpd opened smux on port 199: " + line

    # ---- tunewatchd --------------------------------------------------------

    def start_agent(self, proc_root=None, sys_root=None, interval=1, window=4, args=(),
                    wait=True, env_extra=None):
        cmd = [self.agent_bin, "-f", "-Lo", "-C", "-x", self.socket]
        if interval:
            cmd += ["--interval", str(interval)]
        if window:
            cmd += ["--window", str(window)]
        if proc_root:
            cmd += ["--proc-root", proc_root]
        if sys_root:
            cmd += ["--sys-root", sys_root]
        cmd += list(args)
        env = dict(os.environ, SNMP_PERSISTENT_DIR=os.path.join(self.dir, "persist"))
        if env_extra:
            env.update(env_extra)
        self.agent = subprocess.Popen(self.wrap + cmd, stdout=self.log("tunewatchd"),
                                      stderr=subprocess.STDOUT, env=env)
        self.procs.append(self.agent)
        if wait:
            self.wait_agent()
        return self.agent

    def wait_agent(self, timeout=60.0):
        """Until tunewatchd answers through snmpd. A hang detector, not a
        speed target: at a load average of 31 a tunewatchd that loads its
        BPF program (the kernel's verifier is CPU work) took more than the
        10 s this waited before."""
        wait_for("tunewatchd to register",
                 lambda: self.agent.poll() is None and self.agent_samples() is not None,
                 timeout=timeout)

    def agent_samples(self):
        vals = self.try_get([oid("AGENT_SAMPLES")])
        if not vals or vals[0].type != "Counter64":
            return None
        return vals[0].num

    def sample_now(self):
        """Ask tunewatchd for a sample (SIGUSR1) and wait until it is served."""
        before = self.agent_samples()
        self.agent.send_signal(signal.SIGUSR1)
        wait_for("a new sample", lambda: (self.agent_samples() or 0) > (before or 0))

    # ---- clients -----------------------------------------------------------

    def client_env(self):
        return dict(os.environ, MIBS="", SNMPCONFPATH=self.dir)

    def run_client(self, argv, timeout=20):
        # errors="replace": a reply from whatever else took a free port
        # can hold any byte; it must fail the poll, not the test.
        return subprocess.run(self.wrap + list(argv), capture_output=True, text=True,
                              errors="replace", timeout=timeout, env=self.client_env())

    def try_get(self, oids):
        r = self.run_client([self.snmpget_bin, "-v2c", "-c", "public", "-On", "-Oe", "-t", "1",
                             "-r", "0", "127.0.0.1:%d" % self.port] + list(oids))
        if r.returncode != 0:
            return None
        return parse_varbinds(r.stdout)

    def get(self, oids):
        vals = self.try_get(oids)
        assert vals is not None, "snmpget %s failed" % " ".join(oids)
        return vals

    def walk(self, oid=OBJECTS, bulk=False, mibs=False):
        tool = self.snmpbulkwalk_bin if bulk else self.snmpwalk_bin
        argv = [tool, "-v2c", "-c", "public", "-Oe", "-t", "2", "-r", "1"]
        if mibs:
            base = base_mib_dirs()
            if not base:
                raise Skip("no IETF base MIB modules (../shared/mibs or /usr/share/snmp/mibs/ietf)")
            argv += ["-M", "%s:/usr/share/snmp/mibs:%s" % (base, os.path.join(TOP_SRCDIR, "mib")),
                     "-m", "TUNEWATCH-MIB", "-Os", "-OU"]
        else:
            argv += ["-On", "-m", ""]
        r = self.run_client(argv + ["127.0.0.1:%d" % self.port, oid])
        assert r.returncode == 0, "walk failed: %s %s" % (r.stdout, r.stderr)
        assert "Cannot find module" not in r.stderr, r.stderr
        return parse_varbinds(r.stdout)

    # ---- fixtures ----------------------------------------------------------

    def copy_fixture(self, name):
        """A private copy of tests/fixtures/NAME, free to change."""
        dst = os.path.join(self.dir, name)
        shutil.copytree(os.path.join(FIXTURES, name), dst, symlinks=True)
        # make distcheck's source tree is read-only, and copies keep modes.
        for d, _, files in os.walk(dst):
            os.chmod(d, 0o755)
            for f in files:
                os.chmod(os.path.join(d, f), 0o644)
        return dst


def as_dict(values):
    return {v.oid: v for v in values}


# Tests that thrash memory cgroups (a reader at its limit) and judge what
# the agent sees of the host's: one at a time on the machine, whichever
# tree or make check runs them. Two at once saw each other's cgroups and
# stalls (the host's memory pressure at 27 %, a notification that never
# came, "the churn holds 16 rows"); a lab's or another engineer's tree
# runs the same tests beside this one.
CGROUP_LOCK = "/run/lock/tw-tests-memcg.lock"
LOCK_WAIT_S = 900


def hold_machine_lock(path, wait_s=LOCK_WAIT_S):
    """An exclusive flock on path, held until the process ends; waited
    for at most wait_s (then the test fails, saying who it waited for)."""
    import fcntl
    try:
        fh = open(path, "a")
    except OSError as e:
        # Not root (the test will skip) or no /run/lock: nothing to share.
        print("no machine lock %s: %s" % (path, e))
        return None
    t0 = time.monotonic()
    while True:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if time.monotonic() - t0 > wait_s:
                raise AssertionError("waited %d s for %s" % (wait_s, path))
            time.sleep(0.5)
    waited = time.monotonic() - t0
    if waited >= 1:
        print("waited %.0f s for %s" % (waited, path))
    return fh


def main(test, machine_lock=None):
    """Run test(), translating Skip and failures into automake exit codes;
    holding machine_lock (a path, e.g. CGROUP_LOCK) throughout."""
    try:
        if machine_lock is not None:
            lock = hold_machine_lock(machine_lock)  # noqa: F841 (held open)
        test()
    except Skip as e:
        print("SKIP: %s" % e)
        sys.exit(SKIP)
    except AssertionError as e:
        print("FAIL: %s" % e)
        raise
    print("PASS")
