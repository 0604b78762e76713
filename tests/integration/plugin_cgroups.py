#!/usr/bin/env python3
"""twCgroupTable and check_bufcache --cgroup end to end: tunewatchd on
tests/fixtures/agent with the cgroup v2 tree of
tests/fixtures/collectors/cgroup.tar as its /sys/fs/cgroup, behind a real
snmpd, walked with the real snmpwalk.

The fixture (see tests/check_cgroup.c): four cgroups qualify, system.slice,
nginx.service (at its 64 MiB memory.high) and old.service (memory.max
256 MiB) by their refaults (and the last two by their limits), a session
scope by its refaults and I/O; idle.service and the user slices do not. The test gives nginx's workers cgroup a 32 MiB
memory.high, a fifth. Between the two samples nginx refaults 5000 pages and
runs into its limit 10 more times, workers 1000 pages.

Then, over SNMP, check_bufcache --cgroup with what an administrator types:
a unit name, the name without .service, a path glob, a name that matches
nothing (UNKNOWN, saying what the agent's walk found and did not publish);
and tunewatchd with cgroupMax 2 publishes the two that refaulted most."""

import os
import re
import shutil
import tarfile

import agent_findings as af
import plugin_common as pc
import twtest

CHECK = "check_bufcache"


def cgroup_trees(h):
    """tests/fixtures/collectors/cgroup.tar made into h.dir/cgroup (kept as
    an archive: its paths are longer than make dist keeps)."""
    dst = os.path.join(h.dir, "cgroup")
    with tarfile.open(os.path.join(twtest.FIXTURES, "collectors", "cgroup.tar")) as tf:
        tf.extractall(dst)
    return dst


def make_root(h):
    root = pc.writable(h.copy_fixture("agent"))
    shutil.copytree(os.path.join(cgroup_trees(h), "v2", "sys", "fs"),
                    os.path.join(root, "sys", "fs"))
    pc.writable(root)
    # nginx's delegated subtree gets a limit of its own: a fifth cgroup,
    # which no unit owns.
    write(root, "/system.slice/nginx.service/workers/memory.high", "33554432\n")
    write(root, "/system.slice/nginx.service/workers/memory.current", "33000000\n")
    write(root, "/system.slice/nginx.service/workers/memory.stat",
          "file 30000000\nworkingset_refault_file 100\n")
    return root


def write(root, rel, text):
    with open(os.path.join(root, "sys", "fs", "cgroup", rel.lstrip("/")), "w") as fh:
        fh.write(text)


def rows(h):
    """{path: {column: value}} of a walk of twCgroupTable, and the index of
    each path."""
    v = twtest.as_dict(h.walk(twtest.oid("CGROUP_PATH", None).rsplit(".", 2)[0]))
    paths = twtest.column(v, "CGROUP_PATH")
    out, index = {}, {}
    for idx, val in paths.items():
        path = val.text.strip('"')
        index[path] = idx
        out[path] = {}
        for col in ("CGROUP_UNIT", "CGROUP_LIMIT_NAME", "CGROUP_MEMORY_LIMIT",
                    "CGROUP_MEMORY_USAGE",
                    "CGROUP_REFAULT_RATE", "CGROUP_REFAULTS", "CGROUP_VERSION"):
            got = twtest.column(v, col).get(idx)
            if got is not None:
                out[path][col] = got.text.strip('"') if got.type == "STRING" else got.num
    return out, index


def findings(h):
    """{subject: {column: text}} of twFindingTable's id, symptom, tunable,
    apply and persist."""
    v = twtest.as_dict(h.walk(af.FINDINGS))
    names = ("ID", "SYMPTOM", "TUNABLE", "APPLY", "PERSIST")
    cols = {n: af.col(v, n) for n in names + ("SUBJECT",)}
    return {subj.text.strip('"'): {n: cols[n][idx].text.strip('"') for n in names}
            for idx, subj in cols["SUBJECT"].items()}


def described(obj):
    """The DESCRIPTION of obj in the MIB, in one line; and the same text
    in each Descr of contrib/snmptt/tunewatch.conf that copies it."""
    def one_line(text):
        return " ".join(text.split())
    with open(os.path.join(twtest.TOP_SRCDIR, "mib", "TUNEWATCH-MIB.txt")) as fh:
        m = re.search(r"^%s OBJECT-TYPE.*?DESCRIPTION\s*\"(.*?)\"" % obj, fh.read(),
                      re.S | re.M)
    assert m, obj
    with open(os.path.join(twtest.TOP_SRCDIR, "contrib", "snmptt", "tunewatch.conf")) as fh:
        copies = re.findall(r"\d+: %s\n\s+Syntax=\S+\n\s+Descr=\"(.*?)\"" % obj, fh.read(), re.S)
    assert copies and all(one_line(c) == one_line(m.group(1)) for c in copies), (obj, copies)
    return one_line(m.group(1))


def mib_says(row):
    """What twFindingTable holds for a cgroup is what the MIB says its
    columns hold: a unit's property, its command, its drop-in; or for a
    cgroup that is not a unit's, its limit file and no command."""
    tunable, apply, persist = (described("twFindingTunable"), described("twFindingApply"),
                               described("twFindingPersist"))
    assert "cgroup" in described("twFindingSubject"), described("twFindingSubject")
    assert "'%s'" % row["TUNABLE"] in tunable, (row, tunable)
    if row["APPLY"]:
        unit = row["APPLY"].split()[3]
        assert "'%s'" % row["APPLY"].replace(unit, "UNIT").replace(
            row["APPLY"].split("=")[-1], "128M") in apply, (row, apply)
        assert "/etc/systemd/system/" in persist and "90-tunewatch.conf" in persist, persist
    else:
        assert "not a unit's own" in apply, apply


def test():
    with twtest.Harness("plugin-cgroups") as h:
        root = make_root(h)
        h.start_snmpd()
        # Findings at once, on any refault: the agent's finding is then
        # there to compare with the check's after two samples.
        conf = os.path.join(h.dir, "findings.conf")
        with open(conf, "w") as fh:
            fh.write("findingRaiseAfter 1\ncgroupRefaultWarning 0.5\n"
                     "cgroupRefaultCritical 1\n")
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=300, args=["-c", conf])
        first, index = rows(h)
        assert sorted(first) == ["/system.slice", "/system.slice/nginx.service",
                                 "/system.slice/nginx.service/workers",
                                 "/system.slice/old.service",
                                 "/user.slice/user-1000.slice/session-2.scope"], first
        nginx = first["/system.slice/nginx.service"]
        assert nginx["CGROUP_UNIT"] == "nginx.service", nginx
        assert nginx["CGROUP_LIMIT_NAME"] == "memory.high", nginx
        assert nginx["CGROUP_MEMORY_LIMIT"] == 67108864, nginx
        assert nginx["CGROUP_VERSION"] == 2, nginx
        assert first["/system.slice/old.service"]["CGROUP_LIMIT_NAME"] == "memory.max", first
        scope = first["/user.slice/user-1000.slice/session-2.scope"]
        assert "CGROUP_LIMIT_NAME" not in scope and "CGROUP_MEMORY_LIMIT" not in scope, scope
        # One sample: no rates yet, never a made-up zero.
        assert "CGROUP_REFAULT_RATE" not in nginx, nginx

        write(root, "/system.slice/nginx.service/memory.stat",
              "file 62914560\nworkingset_refault_file 128456\n")
        write(root, "/system.slice/nginx.service/memory.events", "high 50\nmax 2\n")
        write(root, "/system.slice/nginx.service/workers/memory.stat",
              "file 30000000\nworkingset_refault_file 1100\n")
        h.sample_now()
        span = pc.agent_span(h)
        second, index2 = rows(h)
        assert index2 == index, "indexes moved: %r -> %r" % (index, index2)
        rate = second["/system.slice/nginx.service"]["CGROUP_REFAULT_RATE"]
        assert rate == pc.rnd(5000 * 100000 / span), (rate, span)
        assert second["/system.slice/nginx.service"]["CGROUP_REFAULTS"] == 128456, second

        # A unit name; critical over 1 refault/s whatever the span.
        out = pc.run(CHECK, ["--cgroup", "nginx.service", "--refault-warning", "0.5",
                             "--refault-critical", "1"], h.port)
        assert out.rc == 2, out
        # Printed for the log: man/check_bufcache.1's example is this output.
        print(repr(out))
        assert out.lines[0].startswith("BUFCACHE CRITICAL - nginx.service %s refaults/s, "
                                       "memory 64 of its memory.high 64 MiB in the last " % (
                                           pc.hundredths(rate))), out
        tune = [l for l in out.lines if l.startswith("tune: ")]
        assert len(tune) == 1, out
        # Sized from what it holds and read back in the window.
        size = pc.cgroup_limit(second["/system.slice/nginx.service"]["CGROUP_MEMORY_USAGE"],
                               64 << 20, rate / 100.0, span / 1000.0)
        assert tune[0].startswith("tune: nginx.service MemoryHigh=64M -> %s (%s refaults/s "
                                  "while memory.current 64 MiB sits at memory.high 64 MiB, " %
                                  (size, pc.hundredths(rate))), (size, tune)
        # The commands are the ticket's lines below, with --runtime: none in this one.
        assert tune[0].endswith(" s; systemd.resource-control(5), "
                                "Documentation/admin-guide/cgroup-v2.rst)"), tune
        assert "systemctl" not in tune[0] and "drop-in" not in tune[0], tune
        # No host-wide sysctl for a service's own limit.
        assert not [l for l in out.lines if "vm." in l], out
        # Its ticket: the service's own symptom, a command and a drop-in.
        at = out.lines.index(tune[0])
        nginx_id = pc.ticket_id("cgroup-cache-bounded", "nginx.service", "MemoryHigh")
        assert out.lines[at + 1:at + 4] == [
            "  finding: " + nginx_id,
            "  apply: systemctl set-property --runtime nginx.service MemoryHigh=%s" % size,
            "  persist: /etc/systemd/system/nginx.service.d/90-tunewatch.conf: "
            "[Service] MemoryHigh=%s" % size], out
        assert nginx_id != pc.ticket_id("low-hit-refaults", "nginx.service", "MemoryHigh")
        # tunewatchd publishes the same finding, under the same id.
        found = findings(h)
        assert found["nginx.service"] == {
            "ID": nginx_id, "SYMPTOM": "cgroup-cache-bounded", "TUNABLE": "MemoryHigh",
            "APPLY": out.lines[at + 2][len("  apply: "):],
            "PERSIST": out.lines[at + 3][len("  persist: "):]}, found
        mib_says(found["nginx.service"])

        # The defaults (100 and 1000 a second) against the same figure.
        out = pc.run(CHECK, ["--cgroup", "nginx"], h.port)
        want = 2 if rate > 100000 else 1 if rate > 10000 else 0
        assert out.rc == want, (rate, out)

        # A cgroup below a unit's: named by its path, and its own file is
        # the knob, not the unit's property; neither line writes to it.
        out = pc.run(CHECK, ["--cgroup", "/system.slice/nginx.service/*", "--refault-critical",
                             "1"], h.port)
        assert out.rc == 2, out
        assert out.lines[0].startswith("BUFCACHE CRITICAL - /system.slice/nginx.service/workers "), out
        tune = [l for l in out.lines if l.startswith("tune: ")]
        workers = second["/system.slice/nginx.service/workers"]
        size = pc.cgroup_limit(workers["CGROUP_MEMORY_USAGE"], 32 << 20,
                               workers["CGROUP_REFAULT_RATE"] / 100.0, span / 1000.0)
        assert len(tune) == 1 and tune[0].startswith(
            "tune: /system.slice/nginx.service/workers memory.high 32M -> %s (" % size), (size, out)
        assert tune[0].endswith("; Documentation/admin-guide/cgroup-v2.rst)"), tune
        assert "echo " not in tune[0], tune
        # Not a unit: a finding, but no command, and a line saying why.
        at = out.lines.index(tune[0])
        workers_id = pc.ticket_id("cgroup-cache-bounded", "/system.slice/nginx.service/workers",
                                  "memory.high")
        assert out.lines[at + 1] == "  finding: " + workers_id, out
        assert out.lines[at + 2].startswith("  apply: none: not a systemd unit's own cgroup"), out
        assert not [l for l in out.lines if l.startswith("  persist:")], out
        assert found["/system.slice/nginx.service/workers"] == {
            "ID": workers_id, "SYMPTOM": "cgroup-cache-bounded", "TUNABLE": "memory.high",
            "APPLY": "", "PERSIST": ""}, found
        mib_says(found["/system.slice/nginx.service/workers"])

        # A path glob: the scope only; it read nothing, so OK.
        out = pc.run(CHECK, ["--cgroup", "/user.slice/*"], h.port)
        assert out.rc == 0, out
        assert out.lines[0].startswith("BUFCACHE OK - 1 cgroup, at most 0 refaults/s "
                                       "(session-2.scope)"), out
        # Nothing matches: UNKNOWN, saying among how many it looked.
        out = pc.run(CHECK, ["--cgroup", "nonesuch.service"], h.port)
        assert out.rc == 3, out
        assert out.lines[0].startswith("BUFCACHE UNKNOWN - no cgroup matches nonesuch.service "
                                       "among the 5 cgroups"), out
        # The fixture's 8 cgroups, 5 published; nothing past the bounds.
        assert out.lines[0].endswith("; the last walk found 8, 3 not published (past "
                                     "cgroupMax, or with no refaults, limit events, I/O or "
                                     "limit)"), out
        # A bad one: no expression at all.
        out = pc.run(CHECK, ["--cgroup", ""], h.port)
        assert out.rc == 3 and "--cgroup wants" in out.lines[0], out

        # cgroupMax 2: the two that refaulted most (the slice holds
        # nginx's refaults).
        h.stop(h.agent)
        conf = os.path.join(h.dir, "tunewatchd.conf")
        with open(conf, "w") as fh:
            fh.write("cgroupMax 2\n")
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=300, args=["-c", conf])
        bound, _ = rows(h)
        assert sorted(bound) == ["/system.slice", "/system.slice/nginx.service"], bound
        print("cgroups walked: %s; nginx %s refaults/s" % (sorted(second), pc.hundredths(rate)))


if __name__ == "__main__":
    twtest.main(test)
