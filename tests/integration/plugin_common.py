# SPDX-License-Identifier: ISC
"""Helpers for the plugin tests: run a check, take its output apart along
the Monitoring Plugins contract (exit code, one status line with perfdata,
long output), and print numbers exactly as the plugins do, so that tests can
state whole expected lines worked out by hand."""

import os
import random
import re
import shlex
import socket
import subprocess
import time

import twtest

PLUGINS = os.path.join(twtest.TOP_BUILDDIR, "plugins")
CHECKS = ("check_disklatency", "check_dblock", "check_bufcache")
SERVICE = {"check_disklatency": "DISKLATENCY", "check_dblock": "DBLOCK",
           "check_bufcache": "BUFCACHE"}
STATES = {"OK": 0, "WARNING": 1, "CRITICAL": 2, "UNKNOWN": 3}
UOMS = ("", "s", "ms", "us", "%", "B", "KB", "MB", "TB", "c")

# Objects by the header's name: oid("DISK_READ_LATENCY", "8.0").
oid = twtest.oid

_FIRST = re.compile(r"^([A-Z]+) (OK|WARNING|CRITICAL|UNKNOWN)(?: - (.*))?$")
_NUM = r"-?[0-9]+(?:\.[0-9]+)?"
# Labels are written in one alphabet and never quoted (lib/threshold/perfdata.h):
# a label outside it fails every test that runs a check.
_ITEM = re.compile(r"([A-Za-z0-9_-]+)=(" + _NUM + r"|U)([A-Za-z%]*)"
                   r"(?:;([^; ]*))?(?:;([^; ]*))?(?:;([^; ]*))?(?:;([^; ]*))?")
_RANGE = re.compile(r"^@?(?:~|" + _NUM + r")?(?::(?:" + _NUM + r")?)?$")


class Perf:
    def __init__(self, m):
        self.label = m.group(1)
        self.value = m.group(2)
        self.uom = m.group(3)
        self.warn, self.crit, self.min, self.max = (m.group(i) or "" for i in range(4, 8))
        self.text = m.group(0)

    def __repr__(self):
        return self.text


def parse_perfdata(text):
    """Items of a perfdata string; asserts the whole string is well formed."""
    items, pos = [], 0
    while pos < len(text):
        m = _ITEM.match(text, pos)
        assert m, "malformed perfdata at %r in %r" % (text[pos:pos + 40], text)
        item = Perf(m)
        assert item.uom in UOMS, "unit %r is not one of the guidelines' in %r" % (item.uom, item)
        for r in (item.warn, item.crit):
            assert r == "" or _RANGE.match(r), "threshold %r is not a range in %r" % (r, item)
        for n in (item.min, item.max):
            assert n == "" or re.match("^" + _NUM + "$", n), "min/max %r in %r" % (n, item)
        items.append(item)
        pos = m.end()
        if pos < len(text):
            assert text[pos] == " " and pos + 1 < len(text), \
                "items must be one blank apart: %r" % text
            pos += 1
    return items


class Output:
    """One run of a plugin, checked against the output contract."""

    def __init__(self, argv, rc, stdout, stderr, elapsed):
        self.argv, self.rc, self.elapsed = argv, rc, elapsed
        self.stdout, self.stderr = stdout, stderr
        self.lines = stdout.split("\n")
        self.first = self.lines[0]
        self.long = self.lines[1:-1]
        self.tune = [l for l in self.long if l.startswith("tune: ")]
        summary, sep, perf = self.first.partition(" | ")
        self.summary_line = summary
        self.perftext = perf if sep else ""
        m = _FIRST.match(summary)
        self.service = m.group(1) if m else None
        self.state = m.group(2) if m else None
        self.summary = (m.group(3) or "") if m else None

    def __repr__(self):
        return "$ %s\nexit %s after %.2f s\n%s%s" % (
            " ".join(shlex.quote(a) for a in self.argv), self.rc, self.elapsed, self.stdout,
            ("stderr: " + self.stderr) if self.stderr else "")

    def check(self, service):
        """The contract: a status line naming the service and a state that
        matches the exit code, whole lines, nothing on stderr (a sanitizer
        report would land there), perfdata in the guidelines' form."""
        assert self.stderr == "", "stderr is not empty: %r" % self
        assert self.stdout.endswith("\n"), "output does not end with a newline: %r" % self
        assert "" not in self.lines[:-1], "an empty line in the output: %r" % self
        assert self.service == service, "status line does not start with %s: %r" % (service, self)
        assert self.rc == STATES[self.state], "exit code %s does not match %s: %r" % (
            self.rc, self.state, self)
        self.perf = parse_perfdata(self.perftext)
        labels = [p.label for p in self.perf]
        assert len(labels) == len(set(labels)), "a perfdata label repeats: %r" % self
        for line in self.long:
            assert "|" not in line, "a '|' in long output: %r" % self
        return self

    def perf_map(self):
        return {p.label: p for p in self.perf}


def dead_port():
    """A UDP port on 127.0.0.1 where nothing listens, outside the range the
    kernel hands out to clients: a port from twtest.free_port() could come
    back as a running plugin's own source port, and a request sent there
    would land in that plugin."""
    low = 32768
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as fh:
            low = int(fh.read().split()[0])
    except (OSError, ValueError, IndexError):
        pass
    rng = random.Random()
    for _ in range(100):
        port = rng.randrange(10000, max(low, 10001))
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            continue
        finally:
            s.close()
        return port
    raise twtest.Skip("no free UDP port below the ephemeral range on 127.0.0.1")


def writable(root):
    """Make a fixture copy writable: in `make distcheck` the source tree,
    and so a copy of it that keeps modes, is read-only."""
    for d, dirs, files in os.walk(root):
        for n in [d] + [os.path.join(d, f) for f in files]:
            if not os.path.islink(n):
                os.chmod(n, os.stat(n).st_mode | 0o200)
    return root


def plugin_env(extra=None):
    """The environment for a plugin: no MIB loading, and no ini file from
    this machine's standard places (MP_CONFIG_FILE and NAGIOS_CONFIG_PATH
    are cleared; a test that wants them sets them)."""
    env = dict(os.environ, MIBS="")
    env.pop("MP_CONFIG_FILE", None)
    env.pop("NAGIOS_CONFIG_PATH", None)
    if extra:
        env.update(extra)
    return env


def argv_of(check, args, port=None, host="127.0.0.1"):
    argv = [os.path.join(PLUGINS, check)]
    if port is not None:
        argv += ["-H", host, "-p", str(port)]
    return argv + list(args)


def built(argv):
    if not os.access(argv[0], os.X_OK):
        raise twtest.Skip("%s is not built" % argv[0])
    return argv


def wrapper():
    """TW_PLUGIN_WRAPPER, e.g. "valgrind -q --error-exitcode=1", runs each
    plugin under a tool."""
    return shlex.split(os.environ.get("TW_PLUGIN_WRAPPER", ""))


def run(check, args=(), port=None, env=None, timeout=60, host="127.0.0.1"):
    """Run a plugin and check the output contract."""
    argv = built(argv_of(check, args, port, host))
    start = time.monotonic()
    r = subprocess.run(wrapper() + argv, capture_output=True, text=True, timeout=timeout,
                       env=plugin_env(env))
    out = Output(argv, r.returncode, r.stdout, r.stderr, time.monotonic() - start)
    return out.check(SERVICE[check])


def start(check, args=(), port=None, env=None, host="127.0.0.1"):
    """Start a plugin without waiting (for the --local runs, which sleep)."""
    argv = built(argv_of(check, args, port, host))
    p = subprocess.Popen(wrapper() + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=plugin_env(env))
    return argv, p, time.monotonic()


def startup_s(copies=1):
    """How long the checks take to start, print and exit on this machine
    now: the slowest of `copies` runs of each check's -V, all at once, as a
    test that starts that many checks at once would see them. A test that
    holds a check to its -t allows this beside it, twice over, since load
    comes and goes: a sanitizer build on a busy machine starts far slower
    than a plain build on a quiet one, and neither is the timeout's fault."""
    runs = [start(check, ["-V"]) for check in CHECKS for _ in range(copies)]
    slowest = 0.0
    for argv, p, t0 in runs:
        p.communicate(timeout=60)
        slowest = max(slowest, time.monotonic() - t0)
    return slowest


def finish(check, started, timeout=60):
    argv, p, t0 = started
    try:
        stdout, stderr = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        raise AssertionError("%s did not finish within %d s" % (" ".join(argv), timeout))
    out = Output(argv, p.returncode, stdout, stderr, time.monotonic() - t0)
    return out.check(SERVICE[check])


def expect(out, rc, lines):
    """The whole output, line by line, with a readable difference."""
    want = list(lines)
    got = out.stdout.split("\n")[:-1]
    if got != want:
        diff = []
        for i in range(max(len(got), len(want))):
            g = got[i] if i < len(got) else "<none>"
            w = want[i] if i < len(want) else "<none>"
            if g != w:
                diff.append("line %d\n   got: %s\n  want: %s" % (i + 1, g, w))
        raise AssertionError("output differs:\n%s\n%r" % ("\n".join(diff), out))
    assert out.rc == rc, "exit %s, want %s: %r" % (out.rc, rc, out)


# ---- tickets (lib/advice/ticket.h), worked out here on their own --------


def ticket_id(symptom, subject, tunable=""):
    """A finding's id: FNV-1a 64 over symptom, subject and tunable, NUL
    between them, as "tw-" and the first 12 hex digits."""
    h = 0xcbf29ce484222325
    for b in b"\0".join(x.encode() for x in (symptom, subject, tunable)):
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "tw-%012x" % (h >> 16)


UDEV_RULES = "/etc/udev/rules.d/60-tunewatch.rules"
SYSCTL_D = "/etc/sysctl.d/90-tunewatch.conf"


_PROOFS = None
_TRIED = None
_LIMITS = ("MemoryHigh", "MemoryMax", "MemoryLimit", "memory.high", "memory.max",
           "memory.limit_in_bytes")


def _proof_rows(*args):
    out = subprocess.run([os.path.join(twtest.TOP_BUILDDIR, "tests", "proof_table")] +
                         list(args), capture_output=True, text=True, timeout=30,
                         check=True).stdout
    return [l.split("\t") for l in out.splitlines()]


def _knob_is(knob, tunable):
    return tunable == knob or (knob == "limit" and tunable in _LIMITS) or \
        (knob.startswith("queue/") and tunable.endswith("/" + knob))


def proof(symptom, tunable):
    """The proof: line of a finding that names tunable: lib/advice/proof.c's
    row for its symptom and knob (tests/proof_table prints them), matched as
    the checks match it (a device's queue attribute whatever the device, a
    cgroup's limit whatever file or property), or not yet shown, with what
    the guest lab measured for a knob tried there (proof_table --tried)."""
    global _PROOFS, _TRIED
    if _PROOFS is None:
        _PROOFS = _proof_rows()
        _TRIED = _proof_rows("--tried")
    for sym, knob, scenario, figure, effect in _PROOFS:
        if sym == symptom and _knob_is(knob, tunable):
            return ("  proof: lab scenario %s: %s at the new value over the old, %s (95 %% "
                    "interval), beyond its margin with a no-change control (doc/LAB.md)" % (
                        scenario, figure, effect))
    for sym, knob, scenario, effect, why in _TRIED:
        if sym == symptom and _knob_is(knob, tunable):
            return ("  proof: not yet shown on a kernel; tried in the guest lab's %s: %s%s "
                    "(doc/LAB-GUEST.md)" % (scenario, effect + ", " if effect else "", why))
    return "  proof: not yet shown on a kernel"


def ticket(symptom, subject, tunable="", value=None, device=None, match=None):
    """The lines under a tune: (or no tunable:) line on Linux: its finding,
    for a proposed value the apply and persist lines, and for a knob its
    proof. A queue attribute is on device, and its udev rule matches `match`
    ('ATTRS{wwid}=="..."'), or the kernel name."""
    lines = ["  finding: " + ticket_id(symptom, subject, tunable)]
    if value is None:
        return lines + ([proof(symptom, tunable)] if tunable else [])
    if tunable.startswith("queue/"):
        lines.append("  apply: echo %s > /sys/block/%s/%s" % (value, device, tunable))
        lines.append('  persist: %s: ACTION!="remove", SUBSYSTEM=="block", %s, '
                     'ATTR{%s}="%s"' % (UDEV_RULES, match or 'KERNEL=="%s"' % device, tunable,
                                        value))
    else:
        lines.append("  apply: sysctl -w %s=%s" % (tunable,
                                                   "'%s'" % value if " " in value else value))
        lines.append("  persist: %s: %s = %s" % (SYSCTL_D, tunable, value))
    return lines + [proof(symptom, tunable)]


def systemd_size(b):
    """A size as systemd takes it: 128M, 1G, 1536K, or bytes."""
    for unit, suffix in ((1 << 30, "G"), (1 << 20, "M"), (1 << 10, "K")):
        if b >= unit and b % unit == 0:
            return "%d%s" % (b // unit, suffix)
    return "%d" % b


def cgroup_limit(usage, limit, refaults, mem_total=0):
    """The limit check_bufcache --cgroup proposes for a cgroup at its own
    limit whose file set the agent could not measure (lib/advice/advice_cgroup.c;
    a fixture's processes are none of the host's), worked out here on its
    own: what it holds (usage, bytes) plus what it read back in 10 s
    (refaults/s; pages of 4 KiB), whatever the window, a quarter more, in
    whole MiB; between a quarter more than the limit and 16 times it; never
    past the host's memory."""
    return systemd_size(cgroup_limit_bytes(usage, limit, refaults, mem_total))


def cgroup_limit_bytes(usage, limit, refaults, mem_total=0):
    """cgroup_limit() in bytes, as a limit file's apply line writes it."""
    mib = 1 << 20
    want = (usage + refaults * 10 * 4096) * 1.25
    want = min(max(want, limit * 1.25), limit * 16)
    p = int((want + mib - 1) / mib) * mib
    if mem_total and p > mem_total:
        p = mem_total // mib * mib
    return p


# ---- numbers as the plugins print them -------------------------------------


def num(v, precision=2):
    """tw_perf_number(): at most precision fractional digits, rounded half
    away from zero, no trailing zeros. v is the same double the C code
    holds (e.g. hundredths / 100.0), so the rounding matches bit for bit."""
    a = abs(v)
    ip = float(int(a))
    frac = a - ip
    scale = 10 ** precision
    x = frac * scale
    f = int(x)
    if x - f >= 0.5:
        f += 1
    if f >= scale:
        ip += 1
        f = 0
    text = "%d" % ip
    digits = ("%0*d" % (precision, f)).rstrip("0")
    if digits:
        text += "." + digits
    if v < 0 and text != "0":
        text = "-" + text
    return text


def hundredths(n, precision=2):
    """A TwHundredths value as printed."""
    return num(n / 100.0, precision)


def rnd(x):
    """Round half up, as the agent does (llround on a non-negative value)."""
    return int(x + 0.5)


def window_s(span_ms):
    """The plugin's "in the last N s": the span rounded, at least 1."""
    return max(1, (span_ms + 500) // 1000)


def perf_label(text):
    """A perfdata label by lib/threshold/perfdata.h's rule: runs of bytes
    outside letters, digits, '_' and '-' one '_', dropped at either end."""
    text = re.sub(r"^[^A-Za-z0-9_-]+|[^A-Za-z0-9_-]+$", "", text)
    return re.sub(r"[^A-Za-z0-9_-]+", "_", text)


def perf(label, value, uom="", warn="", crit="", min_="", max_=""):
    """One expected perfdata item; trailing empty fields are dropped."""
    fields = [warn, crit, min_, max_]
    while fields and fields[-1] == "":
        fields.pop()
    return "%s=%s%s%s" % (label, value, uom, "".join(";" + f for f in fields))


def agent_span(h):
    """twAgentWindowSpan in milliseconds."""
    return h.get([oid("AGENT_WINDOW_SPAN")])[0].num


def columns(h, oids):
    vals = twtest.as_dict(h.get(oids))
    return {o: vals[o].num for o in oids}
