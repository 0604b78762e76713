#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""twCgroupTable and check_bufcache --cgroup end to end: tunewatchd on
tests/fixtures/agent with the cgroup v2 tree of
tests/fixtures/collectors/cgroup.tar as its /sys/fs/cgroup, behind a real
snmpd, walked with the real snmpwalk.

The fixture (see tests/check_cgroup.c): four cgroups qualify, system.slice,
nginx.service (at its 64 MiB memory.high) and old.service (memory.max
256 MiB) by their refaults (and the last two by their limits), a session
scope by its refaults and I/O; idle.service and the user slices do not. The
test gives nginx's workers cgroup a 32 MiB memory.high, a fifth; a unit
web.service of user 1000's manager
(/user.slice/user-1000.slice/user@1000.service/app.slice/web.service) a
64 MiB memory.high, a sixth; and a look-alike a delegated user could make,
/twhostile/web.service, a 16 MiB memory.max, a seventh; and api.service
twice, in system.slice and in api.slice, 32 MiB each. Between the two
samples nginx refaults 5000 pages and runs into its limit 10 more times,
workers 1000 pages, each web.service 2000.

Then, over SNMP, check_bufcache --cgroup with what an administrator types:
a unit name, the name without .service, a path glob, a name that matches
nothing (UNKNOWN, saying what the agent's walk found and did not publish),
and web.service, which both web.services answer to: each its own
perfdata, its own finding id (the cgroup's whole directory is the
subject), its own owner (a user's unit, a plain cgroup) and its own
command (the user's systemctl --user, the plain cgroup's limit file),
and both rows in twFindingTable; and tunewatchd with cgroupMax 2 publishes
the two that refaulted most."""

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
    for path, limit_file, limit in ((USER_WEB, "memory.high", 64 << 20),
                                    (HOSTILE_WEB, "memory.max", 16 << 20),
                                    (API[0], "memory.max", 32 << 20),
                                    (API[1], "memory.max", 32 << 20)):
        os.makedirs(os.path.join(root, "sys", "fs", "cgroup", path.lstrip("/")))
        write(root, path + "/" + limit_file, "%d\n" % limit)
        write(root, path + "/memory.current", "%d\n" % (limit - 4096))
        write(root, path + "/memory.stat", "file %d\nworkingset_refault_file 100\n" % (
            limit // 2))
    return root


USER_WEB = "/user.slice/user-1000.slice/user@1000.service/app.slice/web.service"
HOSTILE_WEB = "/twhostile/web.service"
# One unit's name at two places systemd could put it (one made by hand).
API = ("/system.slice/api.service", "/api.slice/api.service")



def subject(path):
    """A cgroup's finding's subject on cgroup v2: its directory."""
    return "/sys/fs/cgroup" + path


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
                    "CGROUP_REFAULT_RATE", "CGROUP_REFAULTS", "CGROUP_VERSION",
                    "CGROUP_OWNER_KIND", "CGROUP_OWNER_UID"):
            got = twtest.column(v, col).get(idx)
            if got is not None:
                out[path][col] = got.text.strip('"') if got.type == "STRING" else got.num
    return out, index


def findings(h):
    """{subject: {column: text}} of twFindingTable's id, symptom, tunable,
    apply and persist."""
    v = twtest.as_dict(h.walk(af.FINDINGS))
    names = ("ID", "SYMPTOM", "TUNABLE", "APPLY", "PERSIST", "OWNER")
    cols = {n: af.col(v, n) for n in names + ("SUBJECT",)}
    return {subj.text.strip('"'): {n: cols[n][idx].text.strip('"') for n in names}
            for idx, subj in cols["SUBJECT"].items()}


def described(obj, in_traps=True):
    """The DESCRIPTION of obj in the MIB, in one line; and, for an object
    the notifications carry, the same text in each Descr of
    contrib/snmptt/tunewatch.conf that copies it."""
    def one_line(text):
        return " ".join(text.split())
    with open(os.path.join(twtest.TOP_SRCDIR, "mib", "TUNEWATCH-MIB.txt")) as fh:
        m = re.search(r"^%s OBJECT-TYPE.*?DESCRIPTION\s*\"(.*?)\"" % obj, fh.read(),
                      re.S | re.M)
    assert m, obj
    with open(os.path.join(twtest.TOP_SRCDIR, "contrib", "snmptt", "tunewatch.conf")) as fh:
        copies = re.findall(r"\d+: %s\n\s+Syntax=\S+\n\s+Descr=\"(.*?)\"" % obj, fh.read(), re.S)
    assert (copies if in_traps else not copies), (obj, copies)
    assert all(one_line(c) == one_line(m.group(1)) for c in copies), (obj, copies)
    return one_line(m.group(1))


def mib_says(row):
    """What twFindingTable holds for a cgroup is what the MIB says its
    columns hold, for each kind of owner: a system unit's property, its
    command, its drop-in; a user's unit's systemctl --user and the user's
    drop-in; a plain cgroup's limit file, its write, and nothing that
    persists it."""
    tunable, apply, persist, owner = (
        described("twFindingTunable"), described("twFindingApply"),
        described("twFindingPersist"), described("twFindingOwner", in_traps=False))
    assert "cgroup" in described("twFindingSubject"), described("twFindingSubject")
    assert "'%s'" % row["TUNABLE"] in tunable, (row, tunable)
    value = row["APPLY"].split("=")[-1]
    if row["APPLY"].startswith("systemctl set-property"):
        unit = row["APPLY"].split()[3]
        assert "'%s'" % row["APPLY"].replace(unit, "UNIT").replace(value, "128M") in apply, (
            row, apply)
        assert "/etc/systemd/system/" in persist and "90-tunewatch.conf" in persist, persist
        assert row["OWNER"] == "system unit " + unit, row
    elif row["APPLY"].startswith("systemctl --user"):
        unit, uid = row["APPLY"].split()[6], row["APPLY"].split()[3].rstrip("@")
        assert "'%s'" % row["APPLY"].replace(unit, "UNIT").replace(value, "128M") in apply, (
            row, apply)
        assert "~/.config/systemd/user" in persist, persist
        assert row["OWNER"].startswith("unit %s of user %s's manager" % (unit, uid)), row
        assert "'unit web.service of user 1000's manager (user@1000.service)'" in owner, owner
    else:
        m = re.match(r"^echo (\d+) > /sys/fs/cgroup(/\S+)/(memory\.\w+)$", row["APPLY"])
        assert m, row
        assert m.group(3) == row["TUNABLE"], row
        assert "'echo 134217728 > /sys/fs/cgroup/memory/PATH/memory.limit_in_bytes'" in apply, apply
        assert row["PERSIST"] == "" and "plain cgroup" in persist, (row, persist)
        assert row["OWNER"].startswith("plain cgroup"), row
        assert "'plain cgroup, no systemd unit's own'" in owner, owner


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
        assert sorted(first) == sorted([
            "/system.slice", "/system.slice/nginx.service",
            "/system.slice/nginx.service/workers", "/system.slice/old.service",
            "/user.slice/user-1000.slice/session-2.scope", USER_WEB, HOSTILE_WEB] +
            list(API)), first
        nginx = first["/system.slice/nginx.service"]
        assert nginx["CGROUP_UNIT"] == "nginx.service", nginx
        # Who owns each: told by where it sits, not by its name.
        assert nginx["CGROUP_OWNER_KIND"] == 1 and "CGROUP_OWNER_UID" not in nginx, nginx
        assert first[USER_WEB]["CGROUP_OWNER_KIND"] == 2, first[USER_WEB]
        assert first[USER_WEB]["CGROUP_OWNER_UID"] == 1000, first[USER_WEB]
        assert first[USER_WEB]["CGROUP_UNIT"] == "web.service", first[USER_WEB]
        for plain in (HOSTILE_WEB, "/system.slice/nginx.service/workers"):
            assert first[plain]["CGROUP_OWNER_KIND"] == 3, first[plain]
            assert "CGROUP_UNIT" not in first[plain], first[plain]
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
        write(root, USER_WEB + "/memory.stat", "file 33554432\nworkingset_refault_file 2100\n")
        write(root, HOSTILE_WEB + "/memory.stat", "file 8388608\nworkingset_refault_file 2100\n")
        for path in API:
            write(root, path + "/memory.stat", "file 16777216\nworkingset_refault_file 2100\n")
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
        # Sized from what it holds and read back in 10 s: a fixture's
        # processes hold no files of the host's.
        size = pc.cgroup_limit(second["/system.slice/nginx.service"]["CGROUP_MEMORY_USAGE"],
                               64 << 20, rate / 100.0)
        assert tune[0].startswith("tune: nginx.service MemoryHigh=64M -> %s (%s refaults/s "
                                  "while memory.current 64 MiB sits at memory.high 64 MiB, " %
                                  (size, pc.hundredths(rate))), (size, tune)
        # The commands are the ticket's lines below, with --runtime: none in this one.
        assert tune[0].endswith(" s; sized from what it holds and read back in 10 s, "
                                "%s MiB (its file set unknown: an upper bound); "
                                "systemd.resource-control(5), "
                                "Documentation/admin-guide/cgroup-v2.rst)" % pc.num(
                                    (second["/system.slice/nginx.service"]
                                     ["CGROUP_MEMORY_USAGE"] + rate / 100.0 * 10 * 4096)
                                    / 1048576.0, 1)), tune
        assert "systemctl" not in tune[0] and "drop-in" not in tune[0], tune
        # No host-wide sysctl for a service's own limit.
        assert not [l for l in out.lines if "vm." in l], out
        # Its ticket: the service's own symptom, its owner, a command and
        # a drop-in. The id hashes the cgroup's directory, not the name.
        at = out.lines.index(tune[0])
        nginx = subject("/system.slice/nginx.service")
        nginx_id = pc.ticket_id("cgroup-cache-bounded", nginx, "MemoryHigh")
        assert out.lines[at + 1:at + 5] == [
            "  finding: " + nginx_id,
            "  owner: system unit nginx.service",
            "  apply: systemctl set-property --runtime nginx.service MemoryHigh=%s" % size,
            "  persist: /etc/systemd/system/nginx.service.d/90-tunewatch.conf: "
            "[Service] MemoryHigh=%s" % size], out
        assert nginx_id != pc.ticket_id("low-hit-refaults", nginx, "MemoryHigh")
        # tunewatchd publishes the same finding, under the same id.
        found = findings(h)
        assert found[nginx] == {
            "ID": nginx_id, "SYMPTOM": "cgroup-cache-bounded", "TUNABLE": "MemoryHigh",
            "APPLY": out.lines[at + 3][len("  apply: "):],
            "PERSIST": out.lines[at + 4][len("  persist: "):],
            "OWNER": "system unit nginx.service"}, found
        mib_says(found[nginx])

        # The defaults (100 and 1000 a second) against the same figure.
        out = pc.run(CHECK, ["--cgroup", "nginx"], h.port)
        want = 2 if rate > 100000 else 1 if rate > 10000 else 0
        assert out.rc == want, (rate, out)

        # A cgroup below a unit's: a plain cgroup, named by its path, and
        # its own file is the knob, not the unit's property; the tune line
        # writes to nothing, the ticket's apply line writes the file.
        out = pc.run(CHECK, ["--cgroup", "/system.slice/nginx.service/*", "--refault-critical",
                             "1"], h.port)
        assert out.rc == 2, out
        assert out.lines[0].startswith("BUFCACHE CRITICAL - /system.slice/nginx.service/workers "), out
        tune = [l for l in out.lines if l.startswith("tune: ")]
        workers = second["/system.slice/nginx.service/workers"]
        size = pc.cgroup_limit(workers["CGROUP_MEMORY_USAGE"], 32 << 20,
                               workers["CGROUP_REFAULT_RATE"] / 100.0)
        workers_bytes = pc.cgroup_limit_bytes(workers["CGROUP_MEMORY_USAGE"], 32 << 20,
                                              workers["CGROUP_REFAULT_RATE"] / 100.0)
        assert len(tune) == 1 and tune[0].startswith(
            "tune: /system.slice/nginx.service/workers memory.high 32M -> %s (" % size), (size, out)
        assert tune[0].endswith("; Documentation/admin-guide/cgroup-v2.rst)"), tune
        assert "echo " not in tune[0], tune
        # Not a unit: its limit file to write, and nothing that keeps it.
        at = out.lines.index(tune[0])
        workers = subject("/system.slice/nginx.service/workers")
        workers_id = pc.ticket_id("cgroup-cache-bounded", workers, "memory.high")
        owner = "plain cgroup below system unit nginx.service, no systemd unit's own"
        assert out.lines[at + 1:at + 4] == [
            "  finding: " + workers_id,
            "  owner: " + owner,
            "  apply: echo %d > /sys/fs/cgroup/system.slice/nginx.service/workers/"
            "memory.high" % workers_bytes], out
        assert out.lines[at + 4].startswith("  persist: none: nothing keeps a plain cgroup's "
                                            "limit"), out
        assert found[workers] == {
            "ID": workers_id, "SYMPTOM": "cgroup-cache-bounded", "TUNABLE": "memory.high",
            "APPLY": out.lines[at + 3][len("  apply: "):], "PERSIST": "", "OWNER": owner}, found
        mib_says(found[workers])

        # web.service, as an administrator types it: the user's unit and
        # the look-alike both answer; each is its own subject.
        out = pc.run(CHECK, ["--cgroup", "web.service", "--refault-critical", "1"], h.port)
        assert out.rc == 2, out
        print(repr(out))
        labels = [p.label for p in out.perf]
        assert pc.perf_label("web.service of user 1000 refaults") in labels, labels
        assert pc.perf_label("/twhostile/web.service refaults") in labels, labels
        assert len(labels) == len(set(labels)), labels
        ids = [l for l in out.lines if l.startswith("  finding: ")]
        assert len(ids) == 2 and ids[0] != ids[1], out
        user_row, hostile_row = found[subject(USER_WEB)], found[subject(HOSTILE_WEB)]
        # Each sized from its own figures (lib/advice/advice_cgroup.c).
        user, hostile = second[USER_WEB], second[HOSTILE_WEB]
        user_size = pc.cgroup_limit(user["CGROUP_MEMORY_USAGE"], 64 << 20,
                                    user["CGROUP_REFAULT_RATE"] / 100.0)
        hostile_bytes = pc.cgroup_limit_bytes(hostile["CGROUP_MEMORY_USAGE"], 16 << 20,
                                              hostile["CGROUP_REFAULT_RATE"] / 100.0)
        assert ids == ["  finding: " + user_row["ID"], "  finding: " + hostile_row["ID"]] or \
            ids == ["  finding: " + hostile_row["ID"], "  finding: " + user_row["ID"]], (ids, found)
        assert user_row == {
            "ID": pc.ticket_id("cgroup-cache-bounded", subject(USER_WEB), "MemoryHigh"),
            "SYMPTOM": "cgroup-cache-bounded", "TUNABLE": "MemoryHigh",
            "APPLY": "systemctl --user -M 1000@ set-property --runtime web.service "
                     "MemoryHigh=%s" % user_size,
            "PERSIST": "~/.config/systemd/user/web.service.d/90-tunewatch.conf (in the home of "
                       "user 1000): [Service] MemoryHigh=%s" % user_size,
            "OWNER": "unit web.service of user 1000's manager (user@1000.service)"}, user_row
        assert hostile_row["APPLY"] == ("echo %d > /sys/fs/cgroup/twhostile/web.service/"
                                        "memory.max" % hostile_bytes), hostile_row
        assert hostile_row["TUNABLE"] == "memory.max" and hostile_row["PERSIST"] == "", hostile_row
        assert hostile_row["OWNER"] == ("plain cgroup, no systemd unit's own: not where "
                                        "systemd puts a unit"), hostile_row
        for row in (user_row, hostile_row):
            assert "  apply: " + row["APPLY"] in out.lines, (row, out)
            assert "  owner: " + row["OWNER"] in out.lines, (row, out)
            mib_says(row)
        # No command anywhere for a web.service of the system's.
        assert not [l for l in out.lines if "systemctl set-property" in l], out

        # One unit's name at two places: each row labelled by its path,
        # so that no label repeats, and each its own finding.
        out = pc.run(CHECK, ["--cgroup", "api.service", "--refault-critical", "1"], h.port)
        assert out.rc == 2, out
        labels = sorted(p.label for p in out.perf)
        assert labels == sorted(pc.perf_label("%s %s" % (p, w)) for p in API
                                for w in ("refaults", "cache")), (
            labels, out)
        ids = [l[len("  finding: "):] for l in out.lines if l.startswith("  finding: ")]
        assert sorted(ids) == sorted(found[subject(p)]["ID"] for p in API), (ids, found)
        assert len(set(ids)) == 2, ids

        # A path glob: the scope only; it read nothing, so OK.
        out = pc.run(CHECK, ["--cgroup", "/user.slice/*/session-*"], h.port)
        assert out.rc == 0, out
        assert out.lines[0].startswith("BUFCACHE OK - 1 cgroup, at most 0 refaults/s "
                                       "(session-2.scope)"), out
        # Nothing matches: UNKNOWN, saying among how many it looked.
        out = pc.run(CHECK, ["--cgroup", "nonesuch.service"], h.port)
        assert out.rc == 3, out
        assert out.lines[0].startswith("BUFCACHE UNKNOWN - no cgroup matches nonesuch.service "
                                       "among the 9 cgroups"), out
        # The fixture's cgroups and the test's, 9 published; nothing past
        # the bounds.
        assert re.search(r"; the last walk found (\d+), (\d+) not published \(past "
                         r"cgroupMax, or with no refaults, limit events, I/O or limit\)$",
                         out.lines[0]), out
        found_n, unpublished = map(int, re.search(r"found (\d+), (\d+) not",
                                                  out.lines[0]).groups())
        assert found_n - unpublished == 9, out
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
