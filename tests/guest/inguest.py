#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""The guest's side of the scenarios: workloads and timings measured with
the guest's own clock (the host's clock runs beside an emulated CPU and
says nothing about what a program in the guest waits for). The host copies
this file to /root/tw/inguest.py and runs it through the agent:

  inguest.py restart-snmpd OID [LIMIT_S]   restart snmpd; seconds until snmpd, then OID,
                                           answer again
  inguest.py answer-after-boot OID         uptime when OID first answers (after a boot)
  inguest.py make-file PATH MIB            PATH of MIB MiB of random-looking bytes, synced
  inguest.py reread PATH LOG [PAUSE_S]     read PATH start to end for ever (a service's job);
                                           one JSON line a pass to LOG: {"t", "s", "mib"}
  inguest.py stream PATH LOG [BS]          read PATH start to end in BS-byte reads (4096) for
                                           ever, its pages dropped first (fadvise DONTNEED) and
                                           the file opened again each pass; one JSON line a
                                           pass to LOG: {"t", "s", "mib"}
  inguest.py fio ARGS...                   fio --output-format=json ARGS; its read and write
                                           clat p50/p99 (us), IOPS, bandwidth

Each prints one JSON object on stdout (reread prints nothing: it runs
until it is stopped). Python 3 standard library only.
"""

import json
import os
import subprocess
import sys
import time


def snmp_answers(oid, wait="1"):
    r = subprocess.run(["snmpget", "-v2c", "-c", "public", "-On", "-m", "", "-t", wait,
                        "-r", "0", "127.0.0.1", oid], capture_output=True, text=True,
                       env=dict(os.environ, MIBS=""))
    return r.returncode == 0 and "No Such" not in r.stdout and "=" in r.stdout


def journal_marks(since):
    """When, by the monotonic clock, the journal has each step of a master
    restart since `since` (time.monotonic()): tunewatchd losing the master,
    systemd's "Started snmpd.service" (snmpd's unit is Type=notify: snmpd
    said READY=1, its sockets open), and tunewatchd registering again (its
    AgentX session open; the MIB's subtrees follow in the same turn). The
    journal stamps a message when it receives it, on CLOCK_MONOTONIC, the
    clock of time.monotonic()."""
    r = subprocess.run(["journalctl", "-b", "-o", "json", "--no-pager", "-n", "400",
                        "-u", "snmpd", "-u", "tunewatchd"], capture_output=True, text=True)
    marks = {}
    for line in r.stdout.splitlines():
        try:
            e = json.loads(line)
            t = int(e["__MONOTONIC_TIMESTAMP"]) / 1e6
        except (ValueError, KeyError):
            continue
        msg = e.get("MESSAGE")
        if t < since or not isinstance(msg, str):
            continue
        for key, needle in (("lost", "lost the master agent"),
                            ("ready", "Started snmpd.service"),
                            ("registered", "registered with the master agent")):
            if needle in msg and key not in marks:
                marks[key] = t
    return marks


def restart_snmpd(oid, limit="30"):
    """back_s: from `systemctl restart snmpd`'s return to the end of the
    first get of oid that is answered (gets 0.1 s apart, each waiting up
    to 1 s); answered_s: how long that get itself took; snmpd_s: to the
    first answer of snmpd's own sysUpTime.0 before it. From the journal,
    on the same clock and from the same return (negative: before it):
    lost_s, tunewatchd saw the master go; ready_s, snmpd was ready;
    registered_s, tunewatchd's session to the new master was open."""
    t0 = time.monotonic()
    subprocess.run(["systemctl", "restart", "snmpd"], check=True)
    t1 = time.monotonic()
    n = 0
    snmpd_s = None
    out = {"restart_s": round(t1 - t0, 3), "back_s": None}
    while time.monotonic() - t1 < float(limit):
        n += 1
        if snmpd_s is None and snmp_answers("1.3.6.1.2.1.1.3.0"):
            snmpd_s = round(time.monotonic() - t1, 3)
        s = time.monotonic()
        if snmpd_s is not None and snmp_answers(oid):
            t2 = time.monotonic()
            out.update(back_s=round(t2 - t1, 3), answered_s=round(t2 - s, 3))
            break
        time.sleep(0.1)
    out.update(snmpd_s=snmpd_s, polls=n)
    time.sleep(0.5)                     # the journal's last lines in
    for key, t in journal_marks(t0).items():
        out[key + "_s"] = round(t - t1, 3)
    print(json.dumps(out))


def answer_after_boot(oid):
    while not snmp_answers(oid):
        time.sleep(0.1)
    with open("/proc/uptime") as fh:
        print(json.dumps({"uptime_s": float(fh.read().split()[0])}))


def make_file(path, mib):
    block = os.urandom(1 << 20)
    with open(path, "wb") as fh:
        for i in range(int(mib)):
            # Each MiB differs, so no layer below can fold them.
            fh.write(i.to_bytes(8, "little") + block[8:])
        fh.flush()
        os.fsync(fh.fileno())
    print(json.dumps({"path": path, "mib": int(mib)}))


def reread(path, log, pause="0"):
    size = os.path.getsize(path)
    while True:
        t0 = time.monotonic()
        with open(path, "rb", buffering=0) as fh:
            while fh.read(1 << 20):
                pass
        s = time.monotonic() - t0
        with open(log, "a") as out:
            out.write(json.dumps({"t": round(t0, 3), "s": round(s, 4),
                                  "mib": round(size / (1 << 20), 1)}) + "\n")
        if float(pause):
            time.sleep(float(pause))


def stream(path, log, bs="4096"):
    bs = int(bs)
    size = os.path.getsize(path)
    while True:
        t0 = time.monotonic()
        fd = os.open(path, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            while os.read(fd, bs):
                pass
        finally:
            os.close(fd)
        s = time.monotonic() - t0
        with open(log, "a") as out:
            out.write(json.dumps({"t": round(t0, 3), "s": round(s, 4),
                                  "mib": round(size / (1 << 20), 1)}) + "\n")


def fio(*args):
    r = subprocess.run(["fio", "--output-format=json"] + list(args), capture_output=True,
                       text=True)
    if r.returncode != 0:
        print(json.dumps({"error": r.stderr.strip()[-500:]}))
        sys.exit(1)
    j = json.loads(r.stdout[r.stdout.index("{"):])
    out = {}
    for job in j["jobs"]:
        for d in ("read", "write"):
            x = job[d]
            if not x.get("io_bytes"):
                continue
            pct = x.get("clat_ns", {}).get("percentile", {})
            out[d] = {"iops": round(x["iops"], 1), "bw_kib": x["bw"],
                      "clat_p50_us": round(pct.get("50.000000", 0) / 1000, 1),
                      "clat_p99_us": round(pct.get("99.000000", 0) / 1000, 1),
                      "clat_mean_us": round(x.get("clat_ns", {}).get("mean", 0) / 1000, 1),
                      "ios": x.get("total_ios")}
    print(json.dumps(out))


COMMANDS = {"restart-snmpd": restart_snmpd, "answer-after-boot": answer_after_boot,
            "make-file": make_file, "reread": reread, "stream": stream,
            "fio": fio}

if __name__ == "__main__":
    COMMANDS[sys.argv[1]](*sys.argv[2:])
