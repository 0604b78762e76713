#!/usr/bin/env python3
"""Busy polling and interrupt load: not provoked here, and the row says
why with this machine's figures.

tunewatch's interrupt-load symptom (latency while interrupts are many)
has a knob on FreeBSD only (kern.polling with DEVICE_POLLING, kern.hz);
on Linux the rule names none, since interrupt coalescing is set per
network card (ethtool -C, napi_defer_hard_irqs) and net.core.busy_poll
and busy_read spend CPU polling a device queue for lower latency rather
than removing load (doc/ADVICE-REFERENCE.md). Busy polling needs a NAPI
device of a driver that supports it; the lab's traffic may only use
loopback and veth pairs in its own namespaces, which raise no interrupts
and have no queue to poll. The scenario reads the machine's figures and
skips with them.
"""

import os

import labcore

META = {"name": "net-busypoll", "kind": "problem",
        "symptom": "busy polling and interrupt load (net.core.busy_poll, busy_read)"}


def run(lab):
    nics = sorted(n for n in os.listdir("/sys/class/net")
                  if os.path.exists("/sys/class/net/%s/device" % n))
    raise labcore.Skip(
        "Linux has no busy-poll or interrupt-load knob in the rules (coalescing is per card, "
        "ethtool -C; busy_poll %s and busy_read %s trade CPU for latency), and provoking "
        "interrupt load needs traffic on a real card (%s here), which the lab keeps off: its "
        "loopback and veth traffic raises no interrupts" % (
            lab.read_sysctl("net.core.busy_poll"), lab.read_sysctl("net.core.busy_read"),
            ", ".join(nics) or "none"))


if __name__ == "__main__":
    labcore.main(META, run)
