# SPDX-License-Identifier: ISC
"""Helpers for the install tests: `make install` into a DESTDIR of the
test's own, and where each part is expected, from the directories this
build was configured with (tests/install.mk passes them in TW_DIR_*)."""

import os
import subprocess

import twtest

# The parts of an installation and the directory each belongs in.
DIRS = ("sbindir", "plugindir", "mibdir", "systemdsystemunitdir", "sysconfdir", "pkgdatadir",
        "docdir", "mandir")


def dirs():
    """configure's directories, as make expands them; a part this build does
    not install (no systemd unit directory) is None."""
    return {d: (os.environ.get("TW_DIR_" + d) or None) for d in DIRS}


def make(dest, target="install"):
    """Run `make TARGET DESTDIR=dest` in the build tree; returns its output.
    The parent make's jobserver is not passed down: a serial install is a
    few seconds."""
    env = dict(os.environ)
    for v in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"):
        env.pop(v, None)
    r = subprocess.run([os.environ.get("MAKE", "make"), "-C", twtest.TOP_BUILDDIR, target,
                        "DESTDIR=" + dest], capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, "make %s failed:\n%s\n%s" % (target, r.stdout[-3000:],
                                                            r.stderr[-3000:])
    return r.stdout


def path(dest, directory, *names):
    """A file of the installation under dest."""
    return os.path.join(dest + directory, *names)


def files_under(dest):
    """Every file and symlink installed under dest, relative to it."""
    out = []
    for d, _, files in os.walk(dest):
        for f in files:
            out.append(os.path.relpath(os.path.join(d, f), dest))
    return sorted(out)
