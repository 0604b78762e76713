# SPDX-License-Identifier: ISC
"""Purge: `apt purge tunewatchd monitoring-plugins-tunewatch` in the guest
that scenario_package installed them in (enabled, running, rebooted), and
held to: no tunewatchd process; none of the files that the install and its
set-up added (the whole root file system but the kernel's, systemd's and
apt's run-time and log folders, compared before the install and after
guest-package: the package's files, what its postinst made, the enablement
links) left; no _tunewatch user or group; no unit that systemd knows of.
"""

import guestlab
import scenario_package

META = {"name": "guest-purge", "kind": "system",
        "symptom": "purging the packages leaves no file, user or unit behind"}


def run(ctx):
    g, res = ctx.guest, ctx.result
    res["where"] = "the guest of guest-package"
    if not ctx.shared.get("installed"):
        raise guestlab.Skip("the packages were not installed (guest-package did not get there)")
    d = g.run(["apt", "purge", "-y", "tunewatchd", "monitoring-plugins-tunewatch"],
              timeout=300, check=False, env={"DEBIAN_FRONTEND": "noninteractive"})
    res.checked("`apt purge tunewatchd monitoring-plugins-tunewatch`", d.rc == 0,
                "exit %d %s" % (d.rc, d.err.strip()[-300:]) if d.rc else
                "purged in %.1f s" % d.seconds)
    left = g.run(["pgrep", "-x", "tunewatchd"], check=False).out.split()
    res.checked("no tunewatchd process", not left,
                "pids %s" % " ".join(left) if left else "none (pgrep -x tunewatchd)")
    after = g.sh(scenario_package.SNAPSHOT, timeout=120).out.splitlines()
    added = set(ctx.shared.get("files_installed", [])) - set(ctx.shared["files_before"])
    res.checked("the install and set-up added files to look for", len(added) >= 10,
                "%d added" % len(added))
    left = sorted(added & set(after))
    res.checked("no file left of those the install and set-up added", not left,
                "%d left of %d added%s" % (len(left), len(added),
                                          (": " + " ".join(left[:20])) if left else ""))
    for db in ("passwd", "group"):
        d = g.run(["getent", db, "_tunewatch"], check=False)
        res.checked("no _tunewatch in %s" % db, d.rc == 2,
                    d.out.strip() or "getent %s _tunewatch: exit %d, not found" % (db, d.rc))
    d = g.run(["systemctl", "list-unit-files", "--no-legend", "tunewatchd.service"],
              check=False)
    units = d.out.strip()
    load = g.run(["systemctl", "show", "-p", "LoadState", "--value", "tunewatchd.service"],
                 check=False).out.strip()
    res.checked("no tunewatchd unit known to systemd", not units and load == "not-found",
                "list-unit-files %r, LoadState %s" % (units, load))
