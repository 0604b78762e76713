# SPDX-License-Identifier: ISC
"""A Debian guest under qemu (TCG), driven from the host.

The guest has no network (-nodefaults, no -netdev): the host reaches it
through one virtio-serial port whose other end is a Unix socket in the run's
own folder, served in the guest by guest_agent.py; its serial console goes
to console.log in that folder. The root disk is the cached image opened
with snapshot=on, so the guest's writes go to a temporary file of qemu's
and the image stays as built. Extra disks are files in the run's folder.

Faults are bounded: the guest must answer the agent within BOOT_LIMIT
seconds of qemu's start (GuestFault "did not boot"), a request within its
timeout plus REPLY_SLACK (GuestFault "hung"), and a qemu that exits or
closes the port is GuestFault "lost its console". Whatever happens, qemu is
killed: by Guest.close(), which every path through a `with Guest(...)`
reaches, and, if the host process itself is killed, by the kernel
(PR_SET_PDEATHSIG). Nothing else of the host is touched: no tap device, no
loop device, no mount.
"""

import base64
import ctypes
import json
import os
import select
import shlex
import signal
import socket
import subprocess
import time
import zlib

BOOT_LIMIT = int(os.environ.get("TW_GUEST_BOOT_LIMIT", "300"))
REPLY_SLACK = 30
QEMU = "qemu-system-x86_64"
PR_SET_PDEATHSIG = 1
# Under TCG every TLB flush and every emulated vector instruction is dear:
# qemu's default CPU model without SVM (no AVX, no kvm module, plain crypto),
# no Meltdown/Spectre mitigations (page-table isolation flushes on every
# system call) and no crypto self-tests at boot. The guest is a test bed
# with no network; nothing in it is protected by them.
SPEED = "mitigations=off cryptomgr.notests"


class GuestFault(Exception):
    """The guest did not boot, hung or lost its console: it was killed."""


class Done:
    def __init__(self, ans, argv):
        self.argv = argv
        self.rc = ans["rc"]
        self.timeout = ans.get("timeout", False)
        self.out = base64.b64decode(ans["out"]).decode("utf-8", "replace")
        self.err = base64.b64decode(ans["err"]).decode("utf-8", "replace")
        self.seconds = ans.get("seconds")

    def __repr__(self):
        return "<%s rc=%s>" % (" ".join(self.argv), self.rc)


class CommandFailed(Exception):
    pass


def _die_with_parent():
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


class Disk:
    """An extra disk: a file of SIZE (qemu-img create) and the qemu options
    that attach it. kind: virtio-blk, nvme, scsi (virtio-scsi), or ide
    (a slow, rotational-looking controller). extra: -drive options such
    as throttling.iops-total=100."""

    def __init__(self, name, kind, size="256M", extra="", fmt="raw", serial=None):
        self.name, self.kind, self.size, self.extra, self.fmt = name, kind, size, extra, fmt
        self.serial = serial or ("tw-" + name)[:20]
        # A SCSI disk that stands for a real one has a WWN (NAA 5, an
        # IEEE-registered name, made from its name), as real disks do: the
        # kernel's device/wwid shows it, and udev names the disk by it
        # (/dev/disk/by-id/wwn-0x...), no longer by qemu's serial.
        self.wwn = (0x5000c50000000000 | (zlib.crc32(name.encode()) & 0xffffffff)
                    if kind == "scsi-hdd" else None)

    def create(self, folder):
        self.path = os.path.join(folder, self.name + "." + self.fmt)
        subprocess.run(["qemu-img", "create", "-q", "-f", self.fmt, self.path, self.size],
                       check=True)

    def args(self):
        drive = "file=%s,format=%s,if=none,id=d-%s,cache=none,aio=threads" % (
            self.path, self.fmt, self.name)
        if self.extra:
            drive += "," + self.extra
        if self.kind == "virtio-blk":
            dev = "virtio-blk-pci,drive=d-%s,serial=%s" % (self.name, self.serial)
        elif self.kind == "nvme":
            dev = "nvme,drive=d-%s,serial=%s" % (self.name, self.serial)
        elif self.kind == "scsi":
            dev = "scsi-hd,drive=d-%s,bus=scsi0.0,serial=%s" % (self.name, self.serial)
        elif self.kind == "scsi-hdd":
            # A SCSI disk that says it rotates (VPD page B1), as a spinning
            # disk behind an HBA does: the guest's rotational flag is 1.
            dev = "scsi-hd,drive=d-%s,bus=scsi0.0,serial=%s,rotation_rate=7200,wwn=0x%x" % (
                self.name, self.serial, self.wwn)
        else:
            raise ValueError("unknown disk kind %s" % self.kind)
        return ["-drive", drive, "-device", dev]


class Guest:
    def __init__(self, image_dir, folder, disks=(), memory=1024, smp=2, append="",
                 boot_limit=None, log=print):
        self.image_dir, self.folder, self.disks = image_dir, folder, list(disks)
        self.memory, self.smp, self.append = memory, smp, append
        self.boot_limit = boot_limit or BOOT_LIMIT
        self.log = log
        self.proc = None
        self.sock = None
        self.buf = b""
        self.next_id = 1
        self.boot_seconds = None     # the latest boot's
        self.boots = []              # every boot's, the first one first

    # -- life --------------------------------------------------------------
    def argv(self):
        with open(os.path.join(self.image_dir, "meta.json")) as fh:
            meta = json.load(fh)
        self.port = meta["agent_port"]
        cmdline = " ".join(x for x in (meta["cmdline"], SPEED, self.append) if x)
        a = [QEMU, "-accel", "tcg", "-cpu", "qemu64,-svm", "-smp", str(self.smp),
             "-m", str(self.memory),
             "-nodefaults", "-no-user-config", "-display", "none",
             "-serial", "file:" + os.path.join(self.folder, "console.log"),
             "-monitor", "none",
             "-pidfile", os.path.join(self.folder, "qemu.pid"),
             "-kernel", os.path.join(self.image_dir, "vmlinuz"),
             "-initrd", os.path.join(self.image_dir, "initrd.img"),
             "-append", cmdline,
             "-drive", "file=%s,format=raw,if=virtio,snapshot=on,cache=unsafe"
             % os.path.join(self.image_dir, "root.img"),
             "-device", "virtio-serial-pci,id=vser0",
             "-chardev", "socket,id=agent,path=%s,server=on,wait=off" % self.sock_path,
             "-device", "virtserialport,bus=vser0.0,chardev=agent,name=%s" % self.port]
        if any(d.kind.startswith("scsi") for d in self.disks):
            # Two commands at a time, as a disk without command queueing
            # takes them: the rest wait in the kernel's queue, where the
            # scheduler orders them.
            a += ["-device", "virtio-scsi-pci,id=scsi0,cmd_per_lun=2"]
        for d in self.disks:
            a += d.args()
        return a

    def start(self):
        os.makedirs(self.folder, exist_ok=True)
        self.sock_path = os.path.join(self.folder, "agent.sock")
        for d in self.disks:
            d.create(self.folder)
        argv = self.argv()
        with open(os.path.join(self.folder, "qemu.argv"), "w") as fh:
            fh.write(" ".join(shlex.quote(x) for x in argv) + "\n")
        self.t0 = time.monotonic()
        self.qemu_err = open(os.path.join(self.folder, "qemu.err"), "w")
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=self.qemu_err,
                                     stderr=subprocess.STDOUT, preexec_fn=_die_with_parent)
        self.log("guest: qemu %d started (TCG, %d CPUs, %d MiB, %d extra disks)"
                 % (self.proc.pid, self.smp, self.memory, len(self.disks)))
        deadline = self.t0 + 20
        while True:
            self._check_alive("starting")
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(self.sock_path)
                self.sock = s
                break
            except (FileNotFoundError, ConnectionRefusedError):
                s.close()
            if time.monotonic() > deadline:
                self._fault("qemu opened no agent socket in 20 s")
            time.sleep(0.05)
        self.wait_boot()
        return self

    def wait_boot(self, old_boot_id=None):
        """Wait until the agent answers (and, after a reboot, from a new
        boot), then until systemd has finished starting up."""
        deadline = time.monotonic() + self.boot_limit
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self._fault("did not boot: no answer from the guest agent within %d s"
                            % self.boot_limit)
            try:
                d = self.run(["cat", "/proc/sys/kernel/random/boot_id"], timeout=5,
                             wait=min(5, left), check=False)
            except _NoAnswer:
                continue
            if d.rc == 0 and d.out.strip() != old_boot_id:
                self.boot_id = d.out.strip()
                break
            time.sleep(0.5)
        left = max(5, deadline - time.monotonic())
        d = self.run(["systemctl", "is-system-running", "--wait"], timeout=int(left),
                     check=False)
        self.state = d.out.strip()
        up = self.run(["cat", "/proc/uptime"]).out.split()[0]
        self.boot_seconds = {"wall": round(time.monotonic() - self.t0, 1),
                             "uptime": float(up)}
        self.boots.append(self.boot_seconds)
        self.log("guest: up (%s) in %.1f s wall, %.1f s of guest uptime"
                 % (self.state, self.boot_seconds["wall"], float(up)))

    def reboot(self):
        old = self.boot_id
        self.t0 = time.monotonic()
        self.run(["systemctl", "reboot"], check=False)
        self.wait_boot(old_boot_id=old)

    def close(self):
        """Stop the guest: a clean power-off when it still answers, then
        kill qemu. Always leaves no qemu process."""
        if self.proc is None:
            return
        if self.proc.poll() is None and self.sock is not None:
            try:
                self._send(["systemctl", "poweroff"], timeout=5)
            except (OSError, GuestFault):
                pass
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        if getattr(self, "qemu_err", None):
            self.qemu_err.close()

    def __enter__(self):
        try:
            return self.start()
        except BaseException:
            self.kill()
            raise

    def __exit__(self, *exc):
        self.close()

    # -- requests ----------------------------------------------------------
    def _check_alive(self, what):
        if self.proc.poll() is not None:
            raise self._fault("lost its console: qemu exited (status %s) while %s"
                              % (self.proc.returncode, what), kill=False)

    def _fault(self, why, kill=True):
        if kill:
            self.kill()
        tail = self.console_tail()
        err = ""
        try:
            with open(os.path.join(self.folder, "qemu.err")) as fh:
                err = fh.read().strip()[-500:]
        except OSError:
            pass
        raise GuestFault("%s (killed after %.0f s)%s\nconsole's last lines:\n%s"
                         % (why, time.monotonic() - self.t0,
                            ("\nqemu: " + err) if err else "", tail))

    def console_tail(self, n=15):
        try:
            with open(os.path.join(self.folder, "console.log"), errors="replace") as fh:
                return "\n".join(fh.read().splitlines()[-n:])
        except OSError:
            return "(no console log)"

    def _send(self, argv, stdin=b"", timeout=60, env=None, cwd=None):
        rid = self.next_id
        self.next_id += 1
        req = {"id": rid, "argv": list(argv), "timeout": timeout,
               "stdin": base64.b64encode(stdin).decode()}
        if env:
            req["env"] = env
        if cwd:
            req["cwd"] = cwd
        try:
            self.sock.sendall((json.dumps(req) + "\n").encode())
        except OSError:
            self._check_alive("sending %s" % argv[0])
            self._fault("lost its console: the agent's port closed")
        return rid

    def run(self, argv, stdin=b"", timeout=60, check=True, env=None, cwd=None, wait=None):
        """Run argv in the guest as root; a Done. wait: seconds to wait for
        the answer (timeout + REPLY_SLACK); the guest is killed as hung
        past it, except while booting (wait given: _NoAnswer)."""
        if isinstance(stdin, str):
            stdin = stdin.encode()
        self._check_alive("running %s" % argv[0])
        rid = self._send(argv, stdin, timeout, env, cwd)
        limit = wait if wait is not None else timeout + REPLY_SLACK
        deadline = time.monotonic() + limit
        while True:
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                try:
                    ans = json.loads(line)
                except ValueError:
                    continue
                if ans.get("id") == rid:
                    d = Done(ans, argv)
                    if check and d.rc != 0:
                        raise CommandFailed("guest: %s: exit %s%s\n%s%s" % (
                            " ".join(argv), d.rc, " (timed out)" if d.timeout else "",
                            d.out[-2000:], d.err[-2000:]))
                    return d
            left = deadline - time.monotonic()
            if left <= 0:
                if wait is not None:
                    raise _NoAnswer()
                self._fault("hung: no answer to %s in %d s" % (" ".join(argv)[:80], limit))
            r, _, _ = select.select([self.sock], [], [], min(left, 1.0))
            if r:
                try:
                    chunk = self.sock.recv(1 << 20)
                except OSError:             # reset: qemu went away
                    chunk = b""
                if not chunk:
                    self._check_alive("reading the answer to %s" % argv[0])
                    self._fault("lost its console: the agent's port closed")
                self.buf += chunk
            else:
                self._check_alive("waiting for %s" % argv[0])

    def sh(self, script, timeout=60, check=True):
        return self.run(["sh", "-euc", script], timeout=timeout, check=check)

    def put(self, path, data, mode="0644"):
        if isinstance(data, str):
            data = data.encode()
        self.run(["sh", "-euc", 'umask 022; cat >"$0"; chmod %s "$0"' % mode, path],
                 stdin=data, timeout=120)

    def get(self, path):
        d = self.run(["base64", "-w0", path], timeout=120)
        return base64.b64decode(d.out)


class _NoAnswer(Exception):
    pass
