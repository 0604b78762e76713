# SPDX-License-Identifier: ISC
"""Debian's Request Tracker 5 for notify_rt.py: a SQLite database made by
rt-setup-database in the test's own directory, with RT's own initial data
and contrib/notify/tunewatch-rt.initialdata, an authentication token for
root made through RT's own library (RT::AuthToken, as the web UI makes
one), and rt-server (Plack's Starlet, from rt5-standalone) on 127.0.0.1 at
a free port. RT reads only the site configuration written here
(RT_SITE_CONFIG, RT_SITE_CONFIG_DIR): nothing under /etc or /var is read or
written, and its mail goes to an mbox in the test's directory."""

import base64
import json
import os
import subprocess

import promtest
import twtest

RT_LIB = "/usr/share/request-tracker5/lib"
RT_SERVER = "/usr/share/request-tracker5/libexec/rt-server"
SETUP = "/usr/sbin/rt-setup-database"
INITIALDATA = os.path.join(os.path.abspath(twtest.TOP_SRCDIR), "contrib", "notify", "tunewatch-rt.initialdata")
PACKAGES = "request-tracker5 rt5-db-sqlite rt5-standalone"

MAKE_TOKEN = r"""
use strict;
use RT;
RT::LoadConfig();
RT::Init();
my $user = RT::User->new(RT->SystemUser);
$user->Load('root') or die "no root user\n";
my $token = RT::AuthToken->new(RT->SystemUser);
my ($ok, $msg, $auth) = $token->Create(Owner => $user->Id, Description => 'tunewatch test');
die "token: $msg\n" unless $ok;
print "$auth\n";
"""


def present():
    """Why RT cannot run here, or None."""
    for path in (RT_LIB, RT_SERVER, SETUP):
        if not os.path.exists(path):
            return "%s is missing (Debian: apt-get install %s)" % (path, PACKAGES)
    try:
        r = subprocess.run(["perl", "-I" + RT_LIB, "-e", "use DBD::SQLite; use Starlet;"],
                           capture_output=True, text=True, timeout=60)
    except FileNotFoundError:
        return "perl is missing"
    if r.returncode != 0:
        return "RT's SQLite driver or Starlet is missing (Debian: apt-get install %s): %s" % (
            PACKAGES, r.stderr.strip().splitlines()[0] if r.stderr.strip() else "")
    return None


class RequestTracker:
    def __init__(self, h):
        self.h = h
        self.dir = os.path.join(h.dir, "rt")
        for sub in ("var", "mason", "sessions", "site.d"):
            os.makedirs(os.path.join(self.dir, sub))
        self.port = promtest.free_tcp_port()
        self.url = "http://127.0.0.1:%d" % self.port
        self.config = os.path.join(self.dir, "RT_SiteConfig.pm")
        with open(self.config, "w") as fh:
            fh.write(
                "Set($rtname, 'tw-test');\nSet($Organization, 'tw-test');\n"
                "Set($DatabaseType, 'SQLite');\nSet($DatabaseName, %s);\n"
                "Set($WebDomain, '127.0.0.1');\nSet($WebPort, %d);\nSet($WebPath, '');\n"
                "Set($WebBaseURL, %s);\nSet($CanonicalizeRedirectURLs, 0);\n"
                "Set($LogToSTDERR, 'warning');\nSet($LogToSyslog, undef);\n"
                "Set($LogToFile, undef);\nSet($MailCommand, 'mbox');\n"
                "$MasonDataDir = %s;\n$MasonSessionDir = %s;\n$VarPath = %s;\n1;\n" % (
                    perl_str(os.path.join(self.dir, "var", "rt.db")), self.port,
                    perl_str(self.url), perl_str(os.path.join(self.dir, "mason")),
                    perl_str(os.path.join(self.dir, "sessions")),
                    perl_str(os.path.join(self.dir, "var"))))
        self.env = dict(os.environ, RT_SITE_CONFIG=self.config,
                        RT_SITE_CONFIG_DIR=os.path.join(self.dir, "site.d"))
        self.token = None
        self.proc = None
        self.seen = {}

    def run(self, argv, what):
        with self.h.log("rt-setup") as log:
            r = subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT, env=self.env,
                               timeout=300, cwd=self.dir)
        assert r.returncode == 0, "%s failed (rt-setup.log)" % what

    def setup(self):
        """The database, tunewatch's queue and custom fields, and a token."""
        self.run([SETUP, "--action", "init", "--skip-create"], "rt-setup-database --action init")
        self.run([SETUP, "--action", "insert", "--datafile", INITIALDATA],
                 "rt-setup-database --action insert --datafile tunewatch-rt.initialdata")
        r = subprocess.run(["perl", "-I" + RT_LIB, "-e", MAKE_TOKEN], capture_output=True,
                           text=True, env=self.env, timeout=120)
        assert r.returncode == 0 and r.stdout.strip(), "no token: %s" % r.stderr
        self.token = r.stdout.strip().splitlines()[-1]
        self.token_file = os.path.join(self.dir, "token")
        with open(os.path.join(self.token_file), "w") as fh:
            fh.write(self.token + "\n")
        os.chmod(self.token_file, 0o600)

    def start(self):
        self.proc = subprocess.Popen(
            ["perl", RT_SERVER, "--host", "127.0.0.1", "--port", str(self.port),
             "--max-workers", "2"],
            stdout=self.h.log("rt-server"), stderr=subprocess.STDOUT, env=self.env,
            cwd=self.dir, start_new_session=True)
        self.h.procs.append(self.proc)
        twtest.wait_for("rt-server on %s" % self.url, lambda: self.proc.poll() is not None or
                        self.get("queues/all")[0] == 200, timeout=90, step=0.5)
        assert self.proc.poll() is None, "rt-server exited (rt-server.log)"
        promtest.listeners_on_loopback(self.h, [self.proc])
        return self

    def get(self, path):
        # A hang detector, not a speed target: rt-server (Perl, SQLite) took
        # more than 20 s to answer one search at a load average of 35.
        status, body = promtest.http(self.url + "/REST/2.0/" + path, timeout=120,
                                     headers={"Authorization": "token %s" % self.token})
        return status, (json.loads(body) if status == 200 else body)

    def ticket(self, n):
        status, doc = self.get("ticket/%d" % n)
        assert status == 200, doc
        return doc

    def tickets(self, queue="Tuning"):
        status, doc = self.get("tickets?" + promtest.urllib.parse.urlencode(
            {"query": "Queue = '%s'" % queue, "fields": "Subject,Status,CustomFields"}))
        assert status == 200, doc
        return doc["items"]

    def history(self, n):
        """[(type, content)] of a ticket's transactions, oldest first, with
        the text of each (its attachments' content)."""
        out, page = [], 1
        while True:
            status, doc = self.get("ticket/%d/history?per_page=100&page=%d" % (n, page))
            assert status == 200, doc
            for item in doc["items"]:
                # A transaction never changes: each is read once.
                if item["id"] in self.seen:
                    out.append(self.seen[item["id"]])
                    continue
                # Kept once read, so a failed read must not be kept as an
                # empty text (i33-host's run saw a string where the
                # transaction's document was).
                status, txn = self.get("transaction/%s" % item["id"])
                assert status == 200, (item, txn)
                text = ""
                for link in txn.get("_hyperlinks", []):
                    if link.get("ref") == "attachment":
                        status, att = self.get("attachment/%s" % link["_url"].rsplit("/", 1)[1])
                        assert status is not None, (link, att)
                        if isinstance(att, dict) and att.get("Content"):
                            text += base64.b64decode(att["Content"]).decode("utf-8", "replace")
                self.seen[item["id"]] = (txn.get("Type"), text, txn.get("Field"),
                                         txn.get("NewValue"))
                out.append(self.seen[item["id"]])
            if page >= int(doc.get("pages") or 1):
                return out
            page += 1


def perl_str(text):
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
