#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""The lab on a real system: tunewatch's Debian packages in a Debian guest
with systemd and cgroup v2, under qemu (TCG), and the scenarios of
tests/guest/ run in it (tests/guest/README.md).

  run.py [--results DIR] [--debs DIR] [--only SUBSTRING]... [--out FILE]
         [--cache DIR] [--time-limit S]

It builds the packages (contrib/build-debs; --debs: take them from DIR), finds
or builds the image (image.py; --cache), boots one guest with the disks the
scenarios need and runs SCENARIOS in that order in it, then writes one
result JSON a scenario into DIR (as the lab's, tests/lab/README.md) and the
report (--out, doc/LAB-GUEST.md; with --only, DIR/LAB-GUEST.md) with all
of them beside it (LAB-GUEST.json, in doc/LAB.json's shape). Exit: 0
all passed or skipped, 1 a scenario failed or the guest faulted, 77 it
cannot run here (not root, no qemu, no mmdebstrap): the reason is printed.
A guest fault (it does not boot, hangs or loses its console) kills qemu,
fails the scenario that met it and marks the ones after it "not run".
"""

import argparse
import fcntl
import glob
import importlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

import coverage  # noqa: E402
import guestlab  # noqa: E402
import guestreport  # noqa: E402
import image  # noqa: E402
import vm  # noqa: E402

# The order matters: the package is installed first and purged last; the
# faults end the guest.
SCENARIOS = ["scenario_package", "scenario_cgroup_max", "scenario_cgroup_high",
             "scenario_cgroup_user", "scenario_disk_names", "scenario_readahead_lv",
             "scenario_readahead_md", "scenario_readahead_below", "scenario_disk_hdd", "scenario_disk_nvme",
             "scenario_disk_virtio", "scenario_zz_purge", "scenario_zzz_faults"]
SCENARIO_LIMIT = int(os.environ.get("TW_GUEST_SCENARIO_LIMIT", "600"))
# The host lab's lock (tests/lab/labcore.py): a guest under TCG takes both
# CPUs, so a host scenario beside it would measure the guest, and two guest
# labs would fight over the cache and the CPUs.
LOCK = os.environ.get("TW_LAB_LOCK", "/run/lock/tw-lab.lock")
TOOLS = ["qemu-system-x86_64", "qemu-img", "mmdebstrap", "mkfs.ext4", "unshare"]


class Interrupted(BaseException):
    pass


class OverTime(BaseException):
    pass


def _on_signal(signum, frame):
    raise Interrupted("signal %d" % signum)


def _on_alarm(signum, frame):
    raise OverTime()


def lab_lock(wait_s):
    """The machine's lab lock, held until the file is closed (or the
    process ends), or None with why when another lab held it for wait_s
    seconds. A runner started by one that holds it (TW_LAB_LOCK_HELD)
    takes nothing."""
    if os.environ.get("TW_LAB_LOCK_HELD"):
        return None, None
    os.makedirs(os.path.dirname(LOCK), exist_ok=True)
    fh = open(LOCK, "a")
    deadline = time.monotonic() + wait_s
    while True:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fh, None
        except BlockingIOError:
            if time.monotonic() > deadline:
                fh.close()
                return None, "another lab held %s for %d s" % (LOCK, wait_s)
            time.sleep(1)


def cannot_run():
    if os.geteuid() != 0:
        return "not root (mmdebstrap and the guest's image need root)"
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        return "missing %s (contrib/install-deps --debian installs them)" % ", ".join(missing)
    return None


class Context:
    """What a scenario gets: the guest, its result, the packages, the
    agent reader, and what earlier scenarios left for later ones."""

    def __init__(self, guest, result, debs, shared):
        self.guest, self.result, self.debs, self.shared = guest, result, debs, shared
        self.agent = guestlab.Agent(guest)


def load(names, only):
    mods = []
    for n in names:
        if only and not any(o in n for o in only):
            continue
        mods.append(importlib.import_module(n))
    return mods


def debs_of(args, results):
    if args.debs:
        folder = args.debs
    else:
        folder = os.path.join(results, "debs")
        print("== contrib/build-debs %s" % folder, flush=True)
        t0 = time.monotonic()
        subprocess.run([os.path.join(TOP, "contrib", "build-debs"), folder], check=True)
        print("   built in %.0f s" % (time.monotonic() - t0), flush=True)
    debs = sorted(p for p in glob.glob(os.path.join(folder, "*.deb")) if "-dbgsym_" not in p)
    names = [os.path.basename(p).split("_")[0] for p in debs]
    if sorted(names) != ["monitoring-plugins-tunewatch", "tunewatchd"]:
        raise SystemExit("guest-lab: expected tunewatchd and monitoring-plugins-tunewatch "
                         "in %s, found %s" % (folder, names))
    return debs


def disks(mods):
    out, seen = [], set()
    for m in mods:
        for d in getattr(m, "DISKS", []):
            if d.name not in seen:
                seen.add(d.name)
                out.append(d)
    return out


def coverage_of(outcomes):
    """The coverage table's rows (coverage.py), or why there are none."""
    build = os.environ.get("top_builddir", os.getcwd())
    try:
        return coverage.rows(coverage.rules(build), outcomes, coverage.lab_results())
    except (OSError, subprocess.SubprocessError) as e:
        return "No table: %s/tests/advice_rules did not run (%s; make check builds it)." % (
            build, e)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results")
    ap.add_argument("--debs")
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--out")
    ap.add_argument("--cache")
    ap.add_argument("--time-limit", type=int, default=int(os.environ.get(
        "TW_GUEST_TIME_LIMIT", "1500")))
    args = ap.parse_args()
    why = cannot_run()
    if why:
        print("guest-lab: skipped: %s" % why)
        return 77
    signal.signal(signal.SIGINT, _on_signal)
    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGALRM, _on_alarm)
    t_lock = time.monotonic()
    try:
        lock, why = lab_lock(float(os.environ.get("TW_LAB_LOCK_WAIT", "900")))
    except Interrupted:
        print("guest-lab: interrupted while waiting for the lab lock", flush=True)
        return 130
    if why:
        print("guest-lab: skipped: %s" % why)
        return 77
    lock_wait = round(time.monotonic() - t_lock, 1)
    if lock_wait >= 1:
        print("guest-lab: waited %.0f s for %s" % (lock_wait, LOCK), flush=True)
    try:
        return run_locked(args, t_lock)
    finally:
        if lock is not None:
            lock.close()


def run_locked(args, t_lock):
    """The run, with the lab lock held; its time counts from t_start,
    after the wait for the lock."""
    t_start = time.monotonic()
    results = args.results or tempfile.mkdtemp(prefix="tw-guest-")
    os.makedirs(results, exist_ok=True)
    out = args.out or (os.path.join(results, "LAB-GUEST.md") if args.only
                       else os.path.join(TOP, "doc", "LAB-GUEST.md"))
    mods = load(SCENARIOS, args.only)
    debs = debs_of(args, results)
    print("== image", flush=True)
    t0 = time.monotonic()
    img = image.ensure(args.cache)
    meta = image.meta(img)
    meta["found_s"] = round(time.monotonic() - t0, 1)
    run_dir = tempfile.mkdtemp(prefix="run-", dir=results)
    outcomes = []
    fault = None
    guest = vm.Guest(img, run_dir, disks=disks(mods), log=print)
    try:
        print("== boot", flush=True)
        try:
            guest.start()
        except vm.GuestFault as e:
            fault = "the guest: %s" % e
        shared = {}
        for m in mods:
            res = guestlab.Result(m.META["name"], m.META["kind"], symptom=m.META.get(
                "symptom", ""))
            res["file"] = "tests/guest/%s.py" % m.__name__
            outcomes.append(res)
            print("== %s" % m.META["name"], flush=True)
            if fault:
                res["status"] = "not run"
                res["reason"] = fault.split("\n")[0]
                continue
            left = args.time_limit - (time.monotonic() - t_start)
            if left < 30:
                res["status"] = "not run"
                res["reason"] = "the guest lab's time limit (%d s) was reached" % args.time_limit
                continue
            t1 = time.monotonic()
            signal.alarm(int(min(SCENARIO_LIMIT, left)))
            try:
                m.run(Context(guest, res, debs, shared))
                res["status"] = "pass"
            except guestlab.Skip as e:
                res["status"], res["reason"] = "skip", str(e)
            except AssertionError as e:
                res["status"], res["reason"] = "fail", str(e) or traceback.format_exc()
            except (vm.GuestFault, vm.CommandFailed) as e:
                res["status"], res["reason"] = "fail", str(e)
                if isinstance(e, vm.GuestFault):
                    fault = "the guest faulted in %s" % m.META["name"]
            except Exception as e:          # a scenario's own bug: its row says so
                res["status"] = "fail"
                res["reason"] = "%s: %s\n%s" % (type(e).__name__, e, traceback.format_exc())
            except OverTime:
                res["status"] = "fail"
                res["reason"] = "over its time limit (%d s)" % min(SCENARIO_LIMIT, left)
                fault = "the guest was stopped after %s ran over its time" % m.META["name"]
                guest.kill()
            finally:
                signal.alarm(0)
            res["seconds"] = round(time.monotonic() - t1, 1)
            print("   %s (%.0f s) %s" % (res["status"], res["seconds"],
                                        res.get("reason", "")), flush=True)
    except Interrupted:
        print("guest-lab: interrupted; qemu killed", flush=True)
        guest.kill()
        return 130
    finally:
        guest.close()
    total = round(time.monotonic() - t_start, 1)
    run = {"image": meta, "boot": guest.boots[0] if guest.boots else None,
           "reboots": guest.boots[1:], "seconds": total,
           "lock_wait_s": round(t_start - t_lock, 1),
           "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    for res in outcomes:
        with open(os.path.join(results, res["name"] + ".json"), "w") as fh:
            json.dump(res, fh, indent=1)
    with open(os.path.join(results, "run.json"), "w") as fh:
        json.dump(run, fh, indent=1)
    with open(out, "w") as fh:
        fh.write(guestreport.report(outcomes, run, coverage_of(outcomes)))
    # Beside it, what a program reads: the lab's doc/LAB.json shape.
    commit = subprocess.run(["git", "-C", TOP, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    with open(os.path.splitext(out)[0] + ".json", "w") as fh:
        json.dump({"commit": commit, "date": run["date"], "seconds": total,
                   "only": args.only, "image": meta, "boot": run["boot"],
                   "reboots": run["reboots"], "lock_wait_s": run["lock_wait_s"],
                   "scenarios": outcomes}, fh, indent=1)
    print("guest-lab: %d scenarios in %.0f s; report %s" % (len(outcomes), total, out))
    bad = [r["name"] for r in outcomes if r["status"] not in ("pass", "skip")]
    if bad:
        print("guest-lab: FAILED: %s" % ", ".join(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
