# SPDX-License-Identifier: ISC
"""The machine a lab run ran on, for LAB.md's header: the commit, the
kernel, the CPUs, the memory, the disks and the virtualisation, each as
this machine reports it (nothing guessed: what cannot be read says so).
"""

import os
import platform
import subprocess


def _read(path):
    try:
        with open(path) as fh:
            return fh.read().strip()
    except OSError:
        return None


def commit(top):
    """The commit the tree is at, and whether it has changes of its own."""
    try:
        head = subprocess.run(["git", "-C", top, "rev-parse", "--short=12", "HEAD"],
                              capture_output=True, text=True, timeout=30)
        if head.returncode != 0:
            return "unknown (not a git checkout)"
        dirty = subprocess.run(["git", "-C", top, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown (no git)"
    return head.stdout.strip() + (" with uncommitted changes" if dirty else "")


def cpus():
    model = None
    flags = ""
    for line in (_read("/proc/cpuinfo") or "").splitlines():
        if line.startswith("model name") and model is None:
            model = line.split(":", 1)[1].strip()
        if line.startswith("flags") and not flags:
            flags = line
    return "%d (%s)" % (os.cpu_count() or 0, model or "model not reported"), \
        " hypervisor " in flags + " "


def memory():
    for line in (_read("/proc/meminfo") or "").splitlines():
        if line.startswith("MemTotal:"):
            return "%.1f GiB (MemTotal)" % (int(line.split()[1]) / 1048576.0)
    return "unknown"


def disks():
    out = []
    for name in sorted(os.listdir("/sys/block")):
        if name.startswith(("loop", "ram", "zram", "dm-", "md")):
            continue
        q = "/sys/block/%s/queue/" % name
        size = _read("/sys/block/%s/size" % name)
        sched = _read(q + "scheduler") or ""
        active = sched[sched.find("[") + 1:sched.find("]")] if "[" in sched else sched
        model = _read("/sys/block/%s/device/model" % name)
        driver = os.path.basename(os.path.realpath("/sys/block/%s/device/driver" % name)) \
            if os.path.exists("/sys/block/%s/device/driver" % name) else None
        out.append("%s %.0f GiB, %s, scheduler %s%s" % (
            name, int(size or 0) * 512 / 2.0 ** 30,
            "rotational" if _read(q + "rotational") == "1" else "non-rotational",
            active or "?", ", " + (model or driver) if (model or driver) else ""))
    return "; ".join(out) or "none found"


def virtualisation(hyper_flag):
    words = []
    try:
        r = subprocess.run(["systemd-detect-virt"], capture_output=True, text=True, timeout=10)
        words.append("systemd-detect-virt: %s" % (r.stdout.strip() or "none"))
    except (OSError, subprocess.SubprocessError):
        pass
    words.append("the CPU flags %s a hypervisor" % ("name" if hyper_flag else "do not name"))
    try:
        r = subprocess.run(["dmesg"], capture_output=True, text=True, timeout=10)
        for line in r.stdout.splitlines():
            if "Hypervisor detected" in line:
                words.append("the kernel: " + line.split("]", 1)[-1].strip())
                break
    except (OSError, subprocess.SubprocessError):
        pass
    return "; ".join(words)


def describe(top):
    cpu, hyper = cpus()
    return {"commit": commit(top), "kernel": "Linux %s" % platform.release(), "CPUs": cpu,
            "memory": memory(), "disks": disks(), "virtualisation": virtualisation(hyper)}
