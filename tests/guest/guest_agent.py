#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""The guest's end of the host's control channel (tests/guest/vm.py).

  tw-guest-agent /dev/virtio-ports/org.tunewatch.agent

One request a line, one JSON object: {"id": N, "argv": [...], "stdin": B64,
"timeout": S, "env": {...}}; one answer a line: {"id": N, "rc": RC,
"out": B64, "err": B64, "seconds": S}. Requests are served one at a time;
a command that outlives its timeout is killed with its whole process group
and answered with rc -9 and "timeout": true. The port has no other user.
Installed in the image by image.py as a systemd service; it changes
nothing itself: it runs what the host asks.
"""

import base64
import json
import os
import signal
import subprocess
import sys
import time

MAX_OUT = 64 << 20


def serve_one(req):
    t0 = time.monotonic()
    env = dict(os.environ)
    env.update(req.get("env") or {})
    stdin = base64.b64decode(req.get("stdin") or "")
    try:
        p = subprocess.Popen(req["argv"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env, cwd=req.get("cwd") or "/",
                             start_new_session=True)
    except OSError as e:
        return {"id": req["id"], "rc": 127, "out": "",
                "err": base64.b64encode(("tw-guest-agent: %s\n" % e).encode()).decode(),
                "seconds": 0}
    timed_out = False
    try:
        out, err = p.communicate(stdin, timeout=req.get("timeout") or 60)
    except subprocess.TimeoutExpired:
        timed_out = True
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = p.communicate()
    return {"id": req["id"], "rc": p.returncode, "timeout": timed_out,
            "out": base64.b64encode(out[:MAX_OUT]).decode(),
            "err": base64.b64encode(err[:MAX_OUT]).decode(),
            "seconds": round(time.monotonic() - t0, 3)}


def main():
    port = sys.argv[1]
    fd = os.open(port, os.O_RDWR)
    buf = b""
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            # The host is not connected: wait for it.
            time.sleep(0.2)
            continue
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            try:
                req = json.loads(line)
                ans = serve_one(req)
            except (ValueError, KeyError, TypeError) as e:
                ans = {"id": None, "rc": 2, "out": "",
                       "err": base64.b64encode(("bad request: %s\n" % e).encode()).decode()}
            data = (json.dumps(ans) + "\n").encode()
            while data:
                n = os.write(fd, data)
                data = data[n:]


if __name__ == "__main__":
    main()
