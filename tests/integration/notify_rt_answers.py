#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""contrib/notify/tunewatch-rt against a server that does not answer as
RT's REST 2 does (issue 34): its token goes to --url alone, and every
answer it did not expect is one of its documented exit codes (3: RT
refused, could not be reached, redirected or answered otherwise) with one
line on stderr, never a traceback.

Two HTTP servers of the test's own on 127.0.0.1 (each on its own port, so
each its own origin): the first answers each request as a case says, the
second records every request that reaches it. The cases: a redirect
(301, 302, 307, 308) to the second server, which must receive nothing,
least of all the Authorization header; an answer that is not JSON, JSON
that is a list, items without an id, a ticket id that is not a number, a
body cut short of its Content-Length, a 500 with an HTML page. RT itself
is not needed here: tests/integration/notify_rt.py runs the real one."""

import json
import os
import subprocess
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import twtest

RT_SCRIPT = os.path.join(twtest.TOP_SRCDIR, "contrib", "notify", "tunewatch-rt")
TOKEN = "tw-secret-token-34"
DOC = {"host": "web1", "service": "dblock", "state": "WARNING", "notification_type": "PROBLEM",
       "summary": "DBLOCK WARNING", "changes": [],
       "tickets": [{"key": "web1!dblock!tw-00000000000c", "finding": "tw-00000000000c",
                    "title": "web1 dblock: x", "advice": "tune: net.core.rmem_max 1 -> 2",
                    "notes": []}]}


class Server:
    """An HTTP server on 127.0.0.1 whose answer to each request is
    answer(handler), and which keeps the headers of what it got."""

    def __init__(self, answer):
        self.answer = answer
        self.got = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def handle_one(self):
                n = int(self.headers.get("Content-Length") or 0)
                if n:
                    self.rfile.read(n)
                outer.got.append((self.command, self.path, dict(self.headers)))
                outer.answer(self)

            do_GET = do_POST = handle_one

            def log_message(self, fmt, *args):
                pass
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


def reply(code, body, ctype="application/json", headers=(), length=None):
    def answer(h):
        data = body.encode()
        h.send_response(code)
        h.send_header("Content-Type", ctype)
        for k, v in headers:
            h.send_header(k, v)
        h.send_header("Content-Length", str(len(data) if length is None else length))
        h.end_headers()
        h.wfile.write(data)
    return answer


def search_then(post_answer):
    """An empty search, then post_answer for the ticket's creation."""
    empty = reply(200, json.dumps({"items": [], "pages": 1}))

    def answer(h):
        (empty if h.command == "GET" else post_answer)(h)
    return answer


def run_rt(url, tmp):
    token = os.path.join(tmp, "token")
    with open(token, "w") as fh:
        fh.write(TOKEN + "\n")
    docs = os.path.join(tmp, "docs.json")
    with open(docs, "w") as fh:
        fh.write(json.dumps(DOC) + "\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TW_")}
    return subprocess.run(["python3", RT_SCRIPT, "--url", url, "--token-file", token, "--json",
                           docs], capture_output=True, text=True, env=env, timeout=60)


def test():
    with tempfile.TemporaryDirectory(prefix="tw-rt-answers-") as tmp, \
            Server(reply(200, json.dumps({"items": [], "pages": 1}))) as elsewhere:
        target = "http://127.0.0.1:%d/REST/2.0/tickets" % elsewhere.port
        cases = [("redirect %d" % code, reply(code, "", headers=[("Location", target)]))
                 for code in (301, 302, 307, 308)]
        cases += [
            ("not JSON", reply(200, "<html>login</html>", "text/html")),
            ("JSON that is a list", reply(200, "[]")),
            ("items without an id", reply(200, json.dumps({"items": [{"x": 1}]}))),
            ("a ticket id that is no number", search_then(reply(201, '{"id": "abc"}'))),
            ("a body cut short", reply(200, '{"items": [', length=4096)),
            ("a 500 page", reply(500, "<html>oops</html>", "text/html")),
        ]
        for what, answer in cases:
            with Server(answer) as rt:
                r = run_rt("http://127.0.0.1:%d" % rt.port, tmp)
            print("%s: exit %d: %s" % (what, r.returncode, r.stderr.strip()))
            assert r.returncode == 3, (what, r)
            assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, (what, r.stderr)
            assert r.stderr.startswith("tunewatch-rt: "), (what, r.stderr)
            assert TOKEN not in r.stderr and TOKEN not in r.stdout, what
            if what.startswith("redirect"):
                assert "redirect" in r.stderr, r.stderr
            # The token went to --url, and to no one else.
            assert rt.got and all(h.get("Authorization") == "token " + TOKEN
                                  for _, _, h in rt.got), (what, rt.got)
        assert elsewhere.got == [], "the redirect was followed: %r" % elsewhere.got


if __name__ == "__main__":
    twtest.main(test)
