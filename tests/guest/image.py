#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""The guest's disk image: Debian bookworm with systemd, built by mmdebstrap
from Debian's archive only, and cached by a hash of what makes it.

  image.py [--cache DIR] [--rebuild]     build (or find) it, print its folder

The key is a hash of packages.txt, this file and guest_agent.py: a second
run with the same three finds the image and reuses it; a change to any of
them builds a new one (and removes the old). The cache folder is
$TW_GUEST_CACHE or /var/cache/tunewatch-guest, outside any build tree. A
build writes into a folder of its own (building-KEY-PID) and renames it
when complete, so a build that is killed leaves only that folder, which
the next build removes. mmdebstrap runs in a mount namespace of its own
(unshare --mount), so the mounts it makes in the chroot (/proc, /dev, /sys)
end with it whatever happens: nothing of the host is mounted, no loop
device is used (mkfs.ext4 -d writes the file system from the folder).
"""

import argparse
import ctypes
import fcntl
import glob
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = "bookworm"
MIRROR = "http://deb.debian.org/debian"
IMAGE_SIZE = "3G"
LABEL = "twroot"
AGENT_PORT = "org.tunewatch.agent"
CMDLINE = "console=ttyS0 root=LABEL=%s rw" % LABEL


class ImageError(Exception):
    pass


def cache_dir(override=None):
    return override or os.environ.get("TW_GUEST_CACHE") or "/var/cache/tunewatch-guest"


def packages():
    out = []
    with open(os.path.join(HERE, "packages.txt")) as fh:
        for line in fh:
            word = line.split("#", 1)[0].strip()
            if word:
                out.append(word)
    return out


def key():
    h = hashlib.sha256()
    for name in ("packages.txt", "image.py", "guest_agent.py"):
        with open(os.path.join(HERE, name), "rb") as fh:
            h.update(name.encode() + b"\0" + fh.read() + b"\0")
    return h.hexdigest()[:16]


# The guest agent's unit: it serves the host's requests on the virtio-serial
# port (guest_agent.py). It needs nothing but the port's device.
AGENT_UNIT = """[Unit]
Description=tunewatch test guest agent (host requests on virtio-serial)
BindsTo=dev-virtio\\x2dports-%(port)s.device
After=dev-virtio\\x2dports-%(port)s.device

[Service]
ExecStart=/usr/bin/python3 -B /usr/local/sbin/tw-guest-agent /dev/virtio-ports/%(port)s
Restart=always
RestartSec=1

[Install]
WantedBy=multi-user.target
""" % {"port": AGENT_PORT}

# Run by mmdebstrap before the packages of packages.txt: the initramfs holds
# only what finds the root file system (virtio, ext4 by its label), and the
# hooks' own modules (md, LVM), so that building it takes seconds, not the
# minutes of MODULES=most; the other drivers load from the root file system.
ESSENTIAL_HOOK = r"""set -eu
root=$1
mkdir -p "$root/etc/initramfs-tools/conf.d" "$root/usr/share/initramfs-tools/modules.d"
echo MODULES=list >"$root/etc/initramfs-tools/conf.d/tw-guest.conf"
printf '%s\n' virtio_pci virtio_blk ext4 crc32c_generic >"$root/usr/share/initramfs-tools/modules.d/tw-guest"
"""

# Run by mmdebstrap with the root folder as $1. Timers that would start
# work in the middle of a measurement are masked; nothing else of the
# packages' defaults is changed (snmpd stays enabled, as installed).
HOOK = r"""set -eu
root=$1
install -m 0755 "%(agent)s" "$root/usr/local/sbin/tw-guest-agent"
cat >"$root/etc/systemd/system/tw-guest-agent.service" <<'UNIT'
%(unit)sUNIT
chroot "$root" systemctl enable tw-guest-agent.service
echo twguest >"$root/etc/hostname"
printf '127.0.0.1 localhost\n127.0.1.1 twguest\n' >"$root/etc/hosts"
echo 'LABEL=%(label)s / ext4 defaults 0 1' >"$root/etc/fstab"
chroot "$root" passwd -d root >/dev/null
for t in apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer \
	e2scrub_reap.service mdcheck_start.timer mdcheck_continue.timer mdmonitor-oneshot.timer; do
	ln -sf /dev/null "$root/etc/systemd/system/$t"
done
"""


def _die_with_parent():
    ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)   # PR_SET_PDEATHSIG


def _log(msg):
    print("image: %s" % msg, flush=True)


def _remove_stale(cache, keep):
    for d in glob.glob(os.path.join(cache, "building-*")):
        pid = d.rsplit("-", 1)[-1]
        if pid.isdigit() and os.path.exists("/proc/%s" % pid):
            continue
        shutil.rmtree(d, ignore_errors=True)
    for d in glob.glob(os.path.join(cache, "img-*")):
        if os.path.basename(d) != "img-" + keep:
            shutil.rmtree(d, ignore_errors=True)


def _build(cache, k):
    tmp = os.path.join(cache, "building-%s-%d" % (k, os.getpid()))
    os.makedirs(tmp)
    rootfs = os.path.join(tmp, "rootfs")
    hook = os.path.join(tmp, "hook.sh")
    early = os.path.join(tmp, "essential-hook.sh")
    with open(early, "w") as fh:
        fh.write(ESSENTIAL_HOOK)
    with open(hook, "w") as fh:
        fh.write(HOOK % {"agent": os.path.join(HERE, "guest_agent.py"), "unit": AGENT_UNIT,
                         "label": LABEL})
    # A mount and a PID namespace of its own: if this process dies,
    # unshare is killed (PR_SET_PDEATHSIG), it kills mmdebstrap (the new
    # namespace's first process, --kill-child), the kernel every process
    # of that namespace, and the mounts go with the namespace.
    argv = ["unshare", "--mount", "--propagation", "private", "--pid", "--fork",
            "--kill-child",
            "mmdebstrap", "--mode=root", "--variant=minbase",
            "--aptopt=APT::Install-Recommends \"false\"",
            "--include=" + ",".join(packages()),
            "--essential-hook=sh %s \"$1\"" % early,
            "--customize-hook=sh %s \"$1\"" % hook,
            SUITE, rootfs, MIRROR]
    t0 = time.monotonic()
    _log("mmdebstrap %s (%d packages named) into %s" % (SUITE, len(packages()), tmp))
    with open(os.path.join(tmp, "mmdebstrap.log"), "w") as log:
        p = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                             preexec_fn=_die_with_parent)
        try:
            p.wait()
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
    if p.returncode != 0:
        with open(os.path.join(tmp, "mmdebstrap.log")) as fh:
            tail = fh.read().splitlines()[-30:]
        raise ImageError("mmdebstrap failed (exit %d):\n%s" % (p.returncode, "\n".join(tail)))
    t1 = time.monotonic()
    kernels = sorted(glob.glob(os.path.join(rootfs, "boot", "vmlinuz-*")))
    initrds = sorted(glob.glob(os.path.join(rootfs, "boot", "initrd.img-*")))
    if len(kernels) != 1 or len(initrds) != 1:
        raise ImageError("expected one kernel and one initrd in /boot, found %s %s"
                         % (kernels, initrds))
    shutil.copy(kernels[0], os.path.join(tmp, "vmlinuz"))
    shutil.copy(initrds[0], os.path.join(tmp, "initrd.img"))
    img = os.path.join(tmp, "root.img")
    p = subprocess.run(["mkfs.ext4", "-q", "-L", LABEL, "-d", rootfs, img, IMAGE_SIZE],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise ImageError("mkfs.ext4 -d failed: %s" % p.stdout.strip())
    versions = subprocess.run(["chroot", rootfs, "dpkg-query", "-W", "-f",
                               "${Package} ${Version}\\n"],
                              stdout=subprocess.PIPE, text=True).stdout
    with open(os.path.join(tmp, "packages.installed"), "w") as fh:
        fh.write(versions)
    shutil.rmtree(rootfs)
    meta = {"key": k, "suite": SUITE, "mirror": MIRROR, "kernel": os.path.basename(kernels[0]),
            "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "mmdebstrap_s": round(t1 - t0, 1), "total_s": round(time.monotonic() - t0, 1),
            "cmdline": CMDLINE, "agent_port": AGENT_PORT}
    with open(os.path.join(tmp, "meta.json"), "w") as fh:
        json.dump(meta, fh, indent=1)
    final = os.path.join(cache, "img-" + k)
    os.rename(tmp, final)
    _log("built in %.0f s (mmdebstrap %.0f s)" % (meta["total_s"], meta["mmdebstrap_s"]))
    return final


def ensure(cache=None, rebuild=False):
    """The image's folder (root.img, vmlinuz, initrd.img, meta.json), built
    when the cache has none for this key. Needs root."""
    cache = cache_dir(cache)
    os.makedirs(cache, exist_ok=True)
    k = key()
    with open(os.path.join(cache, "lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        final = os.path.join(cache, "img-" + k)
        if rebuild and os.path.isdir(final):
            shutil.rmtree(final)
        _remove_stale(cache, k)
        if os.path.isfile(os.path.join(final, "meta.json")):
            _log("reusing %s" % final)
            return final
        return _build(cache, k)


def meta(folder):
    with open(os.path.join(folder, "meta.json")) as fh:
        return json.load(fh)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache")
    ap.add_argument("--rebuild", action="store_true")
    a = ap.parse_args()
    try:
        print(ensure(a.cache, a.rebuild))
    except ImageError as e:
        print("image: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
