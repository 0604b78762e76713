# SPDX-License-Identifier: ISC
"""What tunewatch-rt reads of a change: a check's change: line, or a
twTunableChangeEvaluated as snmptrapd's traphandle hands it over, as one
dict (what changed, old and new value, when, the figure before and after,
and the finding id the change answers when the record has one), and the
tunable a ticket's tune: line names. Python 3's standard library only;
tunewatch-rt beside this file imports it."""

import re

# TUNEWATCH-MIB's arc (netSnmpPlaypen 8863: MIB-README section 7).
ARC = "1.3.6.1.4.1.8072.9999.9999.8863"
EVALUATED_TRAP = ARC + ".0.5"
TRAP_OID = "1.3.6.1.6.3.1.1.4.1.0"
CHANGE_COLUMNS = {"2": "tunable", "3": "subject", "4": "old", "5": "new", "6": "time",
                  "8": "figure", "9": "unit", "10": "before", "11": "after", "12": "finding"}
CHANGE_NAMES = {"twChange" + k: v for k, v in (
    ("Tunable", "tunable"), ("Subject", "subject"), ("OldValue", "old"), ("NewValue", "new"),
    ("Time", "time"), ("Figure", "figure"), ("FigureUnit", "unit"), ("Before", "before"),
    ("After", "after"), ("FindingId", "finding"))}
HIGHER_IS_BETTER = ("read hit ratio",)

AT = r" at (?P<at>\d{4}-\d\d-\d\d \d\d:\d\d|\d\d:\d\d|\?); (?P<rest>.*)$"
CHANGE_LINE = re.compile(r"^change: (?P<what>\S+ queue/\S+|\S+) (?P<old>.*?) -> (?P<new>.*?)" + AT)
# A change of a cgroup's limit: the id of the finding it answers first, then
# the cgroup's directory (which may hold spaces) and the limit; a limit's
# values have none ("64M", "infinity", "-1").
CHANGE_LINE_ID = re.compile(r"^change: (?P<finding>tw-[0-9a-f]{12}) (?P<what>.+) (?P<old>\S+) -> "
                            r"(?P<new>\S+)" + AT)
FINDING_ID = re.compile(r"^tw-[0-9a-f]{12}$")
EVALUATED = re.compile(r"^(?P<figure>.+) (?P<before>\d+(?:\.\d+)?) (?P<unit>\S+) before, "
                       r"(?P<after>\d+(?:\.\d+)?) (?P=unit) after$")
SYS_QUEUE = re.compile(r"^/sys/block/([^/\s]+)/queue/(\S+)$")


class Failure(Exception):
    """One line for stderr, and the exit status."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def tunable_key(tunable, subject="host"):
    """The name a ticket and a change share: a sysctl as it is, a disk's
    queue attribute as 'sda queue/nr_requests' (the change history's
    subject and tunable; a finding's /sys/block/sda/queue/nr_requests)."""
    m = SYS_QUEUE.match(tunable)
    if m:
        return "%s queue/%s" % (m.group(1), m.group(2))
    if subject and subject != "host" and tunable.startswith("queue/"):
        return "%s %s" % (subject, tunable)
    return tunable


def is_cgroup(ticket):
    """Whether a ticket is a cgroup's: the check says whose it is (an
    'owner:' line), or its subject is a cgroup's directory."""
    return any(n.startswith("owner: ") or n.startswith("subject: /sys/fs/cgroup")
               for n in ticket.get("notes") or [])


def advice_tunable(advice, ticket=None):
    """The tunable of a 'tune:' line ('tune: net.core.netdev_max_backlog 1000
    -> 2000 (...)', 'tune: /sys/block/sda/queue/scheduler (...)'); None for
    'no tunable:' and for a cgroup's ticket, whose first word is a unit's
    name that a user's unit may share: a change of its limit finds it by
    its finding id alone."""
    if not advice or not advice.startswith("tune: ") or (ticket and is_cgroup(ticket)):
        return None
    first = advice[len("tune: "):].split(" ", 1)[0]
    return tunable_key(first)


def parse_change_line(line):
    """A check's change: line as a change, or None when it is not one, has
    no figure or is still waiting for its window after."""
    m = CHANGE_LINE_ID.match(line) or CHANGE_LINE.match(line)
    if not m:
        return None
    e = EVALUATED.match(m.group("rest"))
    if not e:
        return None
    return {"what": m.group("what"), "old": m.group("old"), "new": m.group("new"),
            "at": m.group("at"), "figure": e.group("figure"), "unit": e.group("unit"),
            "before": float(e.group("before")), "after": float(e.group("after")),
            "finding": m.groupdict().get("finding"), "source": "the check's change: line"}


def parse_trap(text):
    """(address, change) of a twTunableChangeEvaluated as snmptrapd hands it
    to a traphandle; change is None for any other notification or one
    without both figures."""
    lines = text.splitlines()
    if len(lines) < 2:
        raise Failure(2, "a trap is a host line, an address line and its varbinds")
    m = re.search(r"\[([0-9a-fA-F.:]+)\]", lines[1])
    address = m.group(1) if m else lines[0].strip()
    trap, cols = None, {}
    for line in lines[2:]:
        parts = line.split(None, 1)
        if len(parts) < 2:
            continue
        oid, value = parts[0].lstrip("."), parts[1].strip()
        value = re.sub(r"^[A-Za-z0-9-]+: ", "", value)
        if len(value) >= 2 and value[0] == '"' and value[-1] == '"':
            value = re.sub(r'\\(["\\])', r"\1", value[1:-1])
        if oid.endswith(TRAP_OID) or oid.startswith("SNMPv2-MIB::snmpTrapOID"):
            trap = value.lstrip(".")
            continue
        name = oid.split("::")[-1].split(".")[0]
        if name in CHANGE_NAMES:
            cols[CHANGE_NAMES[name]] = value
        elif oid.startswith(ARC + ".1.7.1."):
            col = oid[len(ARC + ".1.7.1."):].split(".")[0]
            if col in CHANGE_COLUMNS:
                cols[CHANGE_COLUMNS[col]] = value
    if trap not in (EVALUATED_TRAP, "TUNEWATCH-MIB::twTunableChangeEvaluated"):
        return address, None
    if "before" not in cols or "after" not in cols or "tunable" not in cols:
        return address, None
    try:
        before, after = int(cols["before"]) / 100.0, int(cols["after"]) / 100.0
    except ValueError:
        raise Failure(2, "twChangeBefore and twChangeAfter are numbers, not %r and %r"
                      % (cols["before"], cols["after"]))
    return address, {"what": tunable_key(cols["tunable"], cols.get("subject", "host")),
                     "old": cols.get("old", ""), "new": cols.get("new", ""),
                     "at": cols.get("time", ""), "figure": cols.get("figure", ""),
                     "unit": cols.get("unit", ""), "before": before, "after": after,
                     "finding": cols.get("finding") if FINDING_ID.match(cols.get("finding", ""))
                     else None, "source": "twTunableChangeEvaluated from %s" % address}


def helped(change, min_improvement):
    """Whether the figure got better by min_improvement percent of before."""
    b, a = change["before"], change["after"]
    gain = (a - b) if change["figure"] in HIGHER_IS_BETTER else (b - a)
    return gain > 0 and gain >= b * min_improvement / 100.0


def figure(x):
    return ("%.2f" % x).rstrip("0").rstrip(".")
