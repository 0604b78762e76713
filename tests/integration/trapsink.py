# SPDX-License-Identifier: ISC
"""A real snmptrapd on 127.0.0.1 for the findings' notifications, and
twFindingTable and the notifications read back by column name.

snmptrapd runs with contrib/snmptrapd/snmptrapd.conf, whose traphandle
hands each notification to snmptt with contrib/snmptt/tunewatch.conf (when
snmptt is installed), both pointed at the test's own directory. snmptrapd
loads TUNEWATCH-MIB where the IETF base modules are (../shared/mibs or
/usr/share/snmp/mibs/ietf) and prints numeric OIDs otherwise; the parsing
here takes either."""

import os
import re
import subprocess

import twtest

H = twtest._H
FINDINGS = "%s.%d" % (twtest.OBJECTS, H["TW_OID_FINDINGS"][0])
ENTRY = "%s.%d.%d" % (FINDINGS, H["TW_OID_FINDING_TABLE"][0], H["TW_OID_FINDING_ENTRY"][0])
NOTIFY = "%s.%d" % (twtest.ARC, H["TW_OID_NOTIFICATIONS"][0])
RAISED = "%s.%d" % (NOTIFY, H["TW_NOTIFY_FINDING_RAISED"][0])
CLEARED = "%s.%d" % (NOTIFY, H["TW_NOTIFY_FINDING_CLEARED"][0])
TRAP_OID = "1.3.6.1.6.3.1.1.4.1.0"		# snmpTrapOID.0

# twFindingEntry's columns by the header's names (TW_OID_FINDING_<name>).
COLUMNS = ("ID", "SYMPTOM", "SUBJECT", "SEVERITY", "EVIDENCE", "TUNABLE", "CURRENT",
           "SUGGESTED", "APPLY", "PERSIST", "DOCUMENTATION", "RAISED", "CHANGED", "OWNER",
           "CLASS", "OWNER_UID")
# The columns every row has (twFindingOwnerUid has no instance for the
# host's findings).
WHOLE = COLUMNS[:COLUMNS.index("CLASS") + 1]
_BY_NUMBER = {H["TW_OID_FINDING_" + c][0]: c for c in COLUMNS}


def scalar(name):
    return "%s.%d.0" % (FINDINGS, H["TW_OID_FINDING_" + name][0])


def col(v, name):
    """{index: value} of one twFindingTable column."""
    prefix = "%s.%d." % (ENTRY, H["TW_OID_FINDING_" + name][0])
    return {k[len(prefix):]: x for k, x in v.items() if k.startswith(prefix)}


def rows(h):
    """twFindingTable as snmpwalk reads it now: {index: {column: text}}.

    A walk reads the table column after column, one request each, and on a
    busy machine it spans samples: a row raised or cleared meanwhile came
    back with some of its columns only (names_forged: a socket's row
    without its evidence, beside make -j2 and fio). Such a row is read again
    whole in one GET, which tunewatchd answers from one sample, and left out
    if it is gone by then."""
    v = twtest.as_dict(h.walk(FINDINGS))
    out = {}
    for name in COLUMNS:
        for index, x in col(v, name).items():
            out.setdefault(index, {})[name] = _text(x)
    for index in [i for i, r in out.items() if not all(c in r for c in WHOLE)]:
        whole = _row(h, index)
        if whole:
            out[index] = whole
        else:
            del out[index]
    return out


def _text(x):
    return x.text if x.type else _value("", x.text)


def _row(h, index):
    """One row's columns in one GET, or None where it is gone."""
    got = h.try_get(["%s.%d.%s" % (ENTRY, H["TW_OID_FINDING_" + c][0], index)
                     for c in COLUMNS])
    if got is None or len(got) != len(COLUMNS):
        return None
    row = {c: _text(x) for c, x in zip(COLUMNS, got)
           if x.type or not x.text.startswith("No Such")}
    return row if all(c in row for c in WHOLE) else None


class Notification:
    """One notification as snmptrapd printed it: its snmpTrapOID and the
    twFindingEntry columns it carries ({column: text}, severity as its
    number)."""

    def __init__(self, trap, columns, text):
        self.trap = trap
        self.columns = columns
        self.text = text

    def __getitem__(self, name):
        return self.columns[name]

    def get(self, name, default=None):
        return self.columns.get(name, default)

    def __repr__(self):
        return self.text


# An empty string is "STRING: " (or "STRING:" at the end of the line).
_VARBIND = re.compile(r"^\.?([0-9.]+) = (?:([A-Za-z0-9 -]+):(?: |$))?(.*)$")


def _value(type_, text):
    # Without the MIB a string is quoted, '\\' and '"' escaped, and an
    # empty one has no type: '= ""'.
    if type_ in ("STRING", "") and len(text) >= 2 and text[0] == '"' and text[-1] == '"':
        return re.sub(r'\\(["\\])', r"\1", text[1:-1])
    if type_ == "INTEGER":
        # "warning(1)" where snmptrapd loads the MIB, "1" where it cannot.
        m = re.search(r"(-?[0-9]+)\)?$", text)
        return m.group(1) if m else text
    return text


def parse_notifications(text):
    """Every notification in snmptrapd's output (-On, one line of
    tab-separated varbinds after each header line), in order."""
    out = []
    for line in text.splitlines():
        if TRAP_OID + " = " not in line:
            continue
        trap, columns = None, {}
        for vb in line.split("\t"):
            m = _VARBIND.match(vb.lstrip())
            if not m:
                continue
            oid, type_, value = m.group(1), m.group(2) or "", m.group(3)
            if oid == TRAP_OID:
                trap = value.lstrip(".")
            elif oid.startswith(ENTRY + "."):
                parts = oid[len(ENTRY) + 1:].split(".")
                name = _BY_NUMBER.get(int(parts[0]))
                if name:
                    columns[name] = _value(type_, value)
        out.append(Notification(trap, columns, line))
    return out


class TrapSink:
    """A real snmptrapd on 127.0.0.1 that accepts v2c traps and prints them:
    over UDP, or over TCP with transport "tcp", where a
    test starves UDP itself (a lab scenario at a tiny udp_mem, which every
    UDP socket of the host shares, the sink's included): given when it is
    made."""

    def __init__(self, h, transport="udp"):
        self.h = h
        self.transport = transport
        self.bin = twtest.which("snmptrapd")
        if not self.bin:
            raise twtest.Skip("snmptrapd is needed (Debian: apt-get install snmptrapd)")
        self.port = twtest.free_tcp_port() if transport == "tcp" else twtest.free_port()
        self.logs = []		# one a start: snmptrapd -Lf truncates its file
        self.proc = None
        self.snmptt = twtest.which("snmptt")
        self.snmptt_log = os.path.join(h.dir, "snmptt.log")

    def snmpd_conf(self):
        """snmpd.conf lines that send its notifications here; the
        clientaddr keeps snmpd's socket on loopback."""
        return "trap2sink %s public\n[snmp] clientaddr 127.0.0.1\n" % self.address()

    def address(self):
        """Where snmptrapd listens, as Net-SNMP names it (udp unprefixed,
        as always)."""
        if self.transport == "tcp":
            return "tcp:127.0.0.1:%d" % self.port
        return "127.0.0.1:%d" % self.port

    def snmptt_ini(self):
        """An snmptt.ini of the test's own: standalone, numeric, its log
        here, contrib/snmptt/tunewatch.conf as the event definitions."""
        ini = os.path.join(self.h.dir, "snmptt.ini")
        with open(ini, "w") as fh:
            fh.write("[General]\nmode = standalone\nnet_snmp_perl_enable = 0\n"
                     "dns_enable = 0\nmultiple_event = 1\n"
                     "[Logging]\nstdout_enable = 0\nlog_enable = 1\nlog_file = %s\n"
                     "unknown_trap_log_enable = 1\nunknown_trap_log_file = %s.unknown\n"
                     "syslog_enable = 0\nsyslog_system_enable = 0\nlog_system_enable = 0\n"
                     "[Debugging]\nDEBUGGING = 0\n"
                     "[TrapFiles]\nsnmptt_conf_files = <<END\n%s\nEND\n"
                     % (self.snmptt_log, self.snmptt_log,
                        os.path.join(twtest.TOP_SRCDIR, "contrib", "snmptt", "tunewatch.conf")))
        return ini

    def start(self):
        # contrib's snmptrapd.conf, pointed at this test's snmptt.ini.
        conf = os.path.join(self.h.dir, "snmptrapd.conf")
        with open(os.path.join(twtest.TOP_SRCDIR, "contrib", "snmptrapd", "snmptrapd.conf")) as fh:
            text = fh.read()
        if self.snmptt:
            text = text.replace("/usr/sbin/snmptt --ini=/etc/snmp/snmptt.ini",
                                "%s --ini=%s" % (self.snmptt, self.snmptt_ini()))
        else:
            text = "\n".join(l for l in text.splitlines() if not l.startswith("traphandle"))
        with open(conf, "w") as fh:
            fh.write(text + "\ndoNotRetainNotificationLogs yes\n")
        self.logs.append(os.path.join(self.h.dir, "snmptrapd-%d.log" % (len(self.logs) + 1)))
        argv = [self.bin, "-f", "-Lf", self.logs[-1], "-C", "-c", conf, "-On"]
        base = twtest.base_mib_dirs()
        if base:
            argv += ["-M", "%s:/usr/share/snmp/mibs:%s" % (base, os.path.join(twtest.TOP_SRCDIR,
                                                                              "mib")),
                     "-m", "TUNEWATCH-MIB"]
        else:
            argv += ["-m", ""]
        env = dict(os.environ, SNMP_PERSISTENT_DIR=os.path.join(self.h.dir, "trap-persist"),
                   MIBS="")
        self.proc = subprocess.Popen(self.h.wrap + argv + ["%s:127.0.0.1:%d" % (
                                                               self.transport, self.port)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, env=env)
        self.h.procs.append(self.proc)
        twtest.wait_for("snmptrapd to start",
                        lambda: "NET-SNMP version" in self.text(self.logs[-1]) or
                        self.proc.poll() is not None)
        assert self.proc.poll() is None, "snmptrapd exited: " + self.text()

    def stop(self):
        self.h.stop(self.proc)

    def text(self, path=None):
        """One file, or every start's snmptrapd log in turn."""
        out = ""
        for p in [path] if path else self.logs:
            try:
                with open(p, errors="replace") as fh:
                    out += fh.read()
            except FileNotFoundError:
                pass
        return out

    def wait(self, trap_oid, count=1, timeout=20.0):
        twtest.wait_for("%d notification(s) %s at snmptrapd" % (count, trap_oid),
                        lambda: self.text().count(trap_oid + " ") +
                        self.text().count(trap_oid + "\t") >= count, timeout=timeout)

    def notifications(self, trap_oid=None):
        return [n for n in parse_notifications(self.text())
                if trap_oid is None or n.trap == trap_oid]

    def wait_notification(self, trap_oid, what, match, timeout=30.0):
        """The first notification trap_oid for which match(notification)
        is true, waited for (bounded)."""
        def found():
            for n in self.notifications(trap_oid):
                if match(n):
                    return n
            return None
        return twtest.wait_for("%s at snmptrapd" % what, found, timeout=timeout, step=0.2)

    def snmptt_lines(self):
        return self.text(self.snmptt_log).splitlines()
