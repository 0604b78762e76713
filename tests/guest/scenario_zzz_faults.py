# SPDX-License-Identifier: ISC
"""The guest's faults, each made on purpose and each held to its limit:

- a guest that does not boot: init=/usr/bin/tail waits on the console for
  ever, so the agent never answers: killed at its boot limit (BOOT_LIMIT_S),
  reported as "did not boot", no qemu left;
- a guest that loses its console: its qemu killed from outside while the
  host waits for the agent: reported as "lost its console" within seconds;
- a guest that hangs: the agent of the lab's own guest stopped (SIGSTOP)
  after the other scenarios: the next command is reported as "hung" at its
  timeout plus vm.REPLY_SLACK, and the guest is killed;
- the host process killed: a child process of the runner's kind that has
  started a qemu is killed with SIGKILL: its qemu dies with it
  (PR_SET_PDEATHSIG), within 5 s.

Nothing else is needed: the guest has no tap device, loop device or mount
on the host (vm.py), which the scenario checks in /proc/mounts and losetup
before and after.
"""

import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time

import guestlab
import vm

META = {"name": "guest-faults", "kind": "system",
        "symptom": "a guest that does not boot, loses its console or hangs, and a killed runner"}
BOOT_LIMIT_S = 45
HANG_TIMEOUT_S = 5


def host_state(dirs):
    """What of the host's could be the guest lab's: mounts and loop devices
    of its folders (the run's and the image cache's), tap devices. Others
    share this machine, so only what could be ours is compared."""
    with open("/proc/mounts") as fh:
        mounts = sorted(l.split()[1] for l in fh if any(l.split()[1].startswith(d)
                                                         for d in dirs))
    loops = sorted(l for l in subprocess.run(["losetup", "-a"], capture_output=True,
                                             text=True).stdout.splitlines()
                   if any(d in l for d in dirs))
    taps = sorted(n for n in os.listdir("/sys/class/net") if n.startswith("tap"))
    return mounts, loops, taps


def qemu_alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as fh:
            return fh.read().split()[2] != "Z"
    except OSError:
        return False


def no_boot(ctx, img, folder):
    res = ctx.result
    g = vm.Guest(img, os.path.join(folder, "noboot"), append="init=/usr/bin/tail",
                 boot_limit=BOOT_LIMIT_S, log=print)
    t0 = time.monotonic()
    try:
        g.start()
        g.close()
        raise AssertionError("a guest with init=/usr/bin/tail booted")
    except vm.GuestFault as e:
        took = time.monotonic() - t0
        res.checked("a guest that does not boot is killed at its limit and said so",
                    str(e).startswith("did not boot") and took <= BOOT_LIMIT_S + 15 and
                    not qemu_alive(g.proc.pid),
                    "%s after %.0f s (limit %d s)" % (str(e).split(" (")[0], took,
                                                      BOOT_LIMIT_S))


def lost_console(ctx, img, folder):
    res = ctx.result
    g = vm.Guest(img, os.path.join(folder, "lost"), append="init=/usr/bin/tail",
                 boot_limit=BOOT_LIMIT_S, log=print)
    killer = None
    t0 = time.monotonic()
    try:
        # qemu dies 5 s into the boot, as it would when it crashes.
        def kill_later():
            time.sleep(5)
            g.proc.kill()

        killer = threading.Thread(target=kill_later)
        killer.start()
        g.start()
        raise AssertionError("a guest whose qemu was killed booted")
    except vm.GuestFault as e:
        took = time.monotonic() - t0
        res.checked("a guest whose qemu dies is reported as having lost its console",
                    "lost its console" in str(e) and took < BOOT_LIMIT_S,
                    "%s after %.0f s" % (str(e).split("\n")[0][:120], took))
    finally:
        if killer:
            killer.join()
        g.kill()


CHILD = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, %r)
    import vm
    g = vm.Guest(%r, %r, append="init=/usr/bin/tail", boot_limit=600, log=lambda m: None)
    g.start()
""")


def killed_runner(ctx, img, folder):
    res = ctx.result
    run = os.path.join(folder, "killed")
    child = subprocess.Popen([sys.executable, "-c", CHILD % (guestlab.HERE, img, run)])
    pidfile = os.path.join(run, "qemu.pid")
    guestlab.wait_for("the child's qemu", lambda: os.path.exists(pidfile) and
                      open(pidfile).read().strip(), timeout=30, step=0.2)
    pid = int(open(pidfile).read())
    child.send_signal(signal.SIGKILL)
    child.wait()
    t0 = time.monotonic()
    while qemu_alive(pid) and time.monotonic() - t0 < 5:
        time.sleep(0.1)
    res.checked("a runner killed with SIGKILL leaves no qemu", not qemu_alive(pid),
                "qemu %d gone %.1f s after its runner" % (pid, time.monotonic() - t0))


def hang(ctx):
    g, res = ctx.guest, ctx.result
    pid = g.run(["systemctl", "show", "-p", "MainPID", "--value", "tw-guest-agent"]).out.strip()
    g.run(["sh", "-c", "(sleep 2; kill -STOP %s) >/dev/null 2>&1 &" % pid])
    time.sleep(4)
    t0 = time.monotonic()
    try:
        g.run(["true"], timeout=HANG_TIMEOUT_S)
        raise AssertionError("the stopped agent answered")
    except vm.GuestFault as e:
        took = time.monotonic() - t0
        res.checked("a guest that hangs is killed at the command's limit and said so",
                    str(e).startswith("hung") and took <= HANG_TIMEOUT_S + vm.REPLY_SLACK + 5
                    and not qemu_alive(g.proc.pid),
                    "%s after %.0f s (limit %d s)" % (str(e).split(" (")[0], took,
                                                      HANG_TIMEOUT_S + vm.REPLY_SLACK))


def run(ctx):
    res = ctx.result
    res["where"] = "the host, and the lab's guest at its end"
    img = ctx.guest.image_dir
    dirs = [os.path.dirname(ctx.guest.folder), os.path.dirname(img)]
    before = host_state(dirs)
    folder = tempfile.mkdtemp(prefix="faults-", dir=os.path.dirname(ctx.guest.folder))
    killed_runner(ctx, img, folder)
    lost_console(ctx, img, folder)
    no_boot(ctx, img, folder)
    hang(ctx)
    after = host_state(dirs)
    res.checked("no mount or loop device of the lab's folders, no tap device, made or left",
                after == before == ([], [], after[2]) and after[2] == before[2],
                "mounts %s, loop devices %s, tap devices %s" % (
                    after[0] or "none", after[1] or "none", after[2] or "none"))
    ctx.shared["guest_gone"] = True
