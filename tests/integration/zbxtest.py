# SPDX-License-Identifier: ISC
"""Debian's Zabbix 6.0 server and frontend for zabbix_server.py, each on
127.0.0.1 in the test's own directory:

- PostgreSQL 15: a cluster made by initdb (trust, a private port, its
  socket in the directory), loaded with zabbix-server-pgsql's schema,
  images and data;
- /usr/sbin/zabbix_server with a configuration written here (ListenIP
  127.0.0.1, a ListenPort under 32768, its own pid, log and socket files,
  few processes and a configuration cache refreshed every second);
- the frontend: a copy of /usr/share/zabbix whose CConfigFile reads a
  zabbix.conf.php of this directory, served by PHP's built-in web server,
  for the JSON-RPC API and the pages Chromium takes a picture of.

Nothing under /etc or /var is read or written. Stopping is in order:
zabbix_server before PostgreSQL (it stops slowly once its database is
gone)."""

import json
import os
import pwd
import random
import re
import shutil
import signal
import socket
import subprocess
import threading
import urllib.error
import urllib.parse
import urllib.request

import promtest
import twtest

PG_BIN = "/usr/lib/postgresql/15/bin"
SERVER = "/usr/sbin/zabbix_server"
SQL_DIR = "/usr/share/zabbix-server-pgsql"
FRONTEND = "/usr/share/zabbix"
PACKAGES = "zabbix-server-pgsql zabbix-frontend-php postgresql php-cli php-pgsql"
VERSION = "6.0"          # the template's export version; the server must be a 6.0


def present():
    """Why Zabbix cannot run here, or None."""
    need = [os.path.join(PG_BIN, "initdb"), os.path.join(PG_BIN, "postgres"),
            os.path.join(PG_BIN, "psql"), SERVER, os.path.join(FRONTEND, "api_jsonrpc.php")]
    need += [os.path.join(SQL_DIR, f + ".sql.gz") for f in ("schema", "images", "data")]
    for path in need:
        if not os.path.exists(path):
            return "%s is missing (Debian 12: apt-get install %s)" % (path, PACKAGES)
    if not twtest.which("php"):
        return "php is missing (Debian: apt-get install php-cli php-pgsql)"
    r = subprocess.run(["php", "-r", "exit(function_exists('pg_connect') ? 0 : 1);"],
                       capture_output=True, timeout=60)
    if r.returncode != 0:
        return "PHP has no PostgreSQL driver (Debian: apt-get install php-pgsql)"
    return None


def server_version():
    """(text, major.minor) of zabbix_server -V's first line."""
    r = subprocess.run([SERVER, "-V"], capture_output=True, text=True, timeout=30)
    first = (r.stdout.splitlines() or [""])[0]
    m = re.search(r"\(Zabbix\) (\d+)\.(\d+)\.(\d+)", first)
    if not m:
        return first, None
    return first, "%s.%s" % (m.group(1), m.group(2))


def low_port():
    """A TCP port under 32768 (Zabbix's ListenPort range ends at 32767)
    free on 127.0.0.1 right now; bounded tries."""
    rnd = random.Random()
    for _ in range(200):
        port = rnd.randint(12000, 32767)
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            continue
        finally:
            s.close()
        return port
    raise RuntimeError("no free TCP port under 32768 on 127.0.0.1")


class ApiError(Exception):
    """The API answered with an error object."""


class Zabbix:
    def __init__(self, h):
        self.h = h
        self.dir = os.path.join(h.dir, "zabbix")
        os.makedirs(self.dir)
        self.pg_dir = os.path.join(self.dir, "pgdata")
        self.pg_sock = os.path.join(self.dir, "pgsock")
        self.pg_port = promtest.free_tcp_port()
        self.server_port = low_port()
        self.web_port = promtest.free_tcp_port()
        self.trap_file = os.path.join(self.dir, "zabbix_traps.tmp")
        self.pg = self.server = self.web = self.trapd = self.web_out = None
        self.trap_port = None
        self.locpath = os.path.join(self.dir, "locale")
        self.localedef = self.copying = None
        self.auth = None
        self.url = "http://127.0.0.1:%d" % self.web_port
        # initdb and zabbix_server refuse root: as root, PostgreSQL runs as
        # postgres and zabbix_server is told AllowRoot (its User would be
        # zabbix, who cannot write the test's directory).
        self.root = os.geteuid() == 0

    # ---- PostgreSQL ---------------------------------------------------------

    def _as_pg(self):
        if not self.root:
            return None
        pw = pwd.getpwnam("postgres")

        def drop():
            os.setgid(pw.pw_gid)
            os.setgroups([])
            os.setuid(pw.pw_uid)
        return drop

    def start_locale(self):
        """The frontend's language, en_US, needs a system locale that Debian
        generates only when asked (without it every page says so in a red
        box): compiled from the locales package's sources into the test's
        directory, for PHP's LOCPATH; in the background, while the database
        loads. Without the sources the pages keep the red box."""
        os.makedirs(self.locpath)
        if twtest.which("localedef") and os.path.exists("/usr/share/i18n/locales/en_US"):
            self.localedef = subprocess.Popen(
                ["localedef", "-i", "en_US", "-f", "UTF-8",
                 os.path.join(self.locpath, "en_US.UTF-8")],
                stdout=self.h.log("localedef"), stderr=subprocess.STDOUT)

    def start_db(self):
        # The locale and the frontend's copy are made while the database
        # loads.
        self.start_locale()
        self.copying = threading.Thread(target=self.copy_frontend, daemon=True)
        self.copying.start()
        os.makedirs(self.pg_sock)
        os.makedirs(self.pg_dir, 0o700)
        if self.root:
            pw = pwd.getpwnam("postgres")
            for d in (self.pg_sock, self.pg_dir):
                os.chown(d, pw.pw_uid, pw.pw_gid)
            # postgres reaches its directories through the test's.
            for d in (self.h.dir, self.dir):
                os.chmod(d, 0o755)
        r = subprocess.run([os.path.join(PG_BIN, "initdb"), "-D", self.pg_dir, "-U", "zabbix",
                            "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"],
                           capture_output=True, text=True, timeout=120, preexec_fn=self._as_pg(),
                           cwd="/")
        assert r.returncode == 0, "initdb failed: %s%s" % (r.stdout, r.stderr)
        self.pg = subprocess.Popen(
            [os.path.join(PG_BIN, "postgres"), "-D", self.pg_dir, "-p", str(self.pg_port),
             "-k", self.pg_sock, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off",
             "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
             "-c", "max_connections=50", "-c", "shared_buffers=64MB"],
            stdout=self.h.log("postgres"), stderr=subprocess.STDOUT, preexec_fn=self._as_pg(),
            cwd="/")
        twtest.wait_for("PostgreSQL on 127.0.0.1:%d" % self.pg_port,
                        lambda: self.pg.poll() is not None or self.psql("select 1", db="postgres",
                                                                       check=False) == "1",
                        timeout=60, step=0.2)
        assert self.pg.poll() is None, "postgres exited"
        self.psql("create database zabbix", db="postgres")
        # Each file in one simple-query message (PHP's pg_query), not a
        # round trip a statement as psql makes: data.sql's 130,000 INSERTs
        # took 35 s through psql, 18 s so (load 15). Foreign keys are not
        # checked while loading (session_replication_role): the data is
        # Zabbix's own.
        load = ("$c = pg_connect($argv[1]) or exit(2);"
                "if (pg_query($c, 'SET session_replication_role = replica;' . "
                "file_get_contents('compress.zlib://' . $argv[2])) === false) {"
                "fwrite(STDERR, pg_last_error($c)); exit(1); }")
        for f in ("schema", "images", "data"):
            r = subprocess.run(["php", "-r", load, "--", self.pg_conninfo(),
                                os.path.join(SQL_DIR, f + ".sql.gz")],
                               capture_output=True, text=True, timeout=600)
            assert r.returncode == 0, "loading %s.sql: %s%s" % (f, r.stdout, r.stderr[-2000:])
        # The planner's statistics, which autovacuum would gather only later:
        # without them linking the template to a host took over 5 minutes.
        self.psql("analyze")

    def pg_conninfo(self):
        return "host=127.0.0.1 port=%d user=zabbix dbname=zabbix" % self.pg_port

    def psql(self, sql, db="zabbix", check=True):
        r = subprocess.run([os.path.join(PG_BIN, "psql"), "-X", "-A", "-t", "-h", "127.0.0.1",
                            "-p", str(self.pg_port), "-U", "zabbix", "-c", sql, db],
                           capture_output=True, text=True, timeout=60)
        if check:
            assert r.returncode == 0, "psql %r: %s" % (sql, r.stderr)
        return r.stdout.strip() if r.returncode == 0 else None

    # ---- zabbix_server ------------------------------------------------------

    def server_conf(self, extra=""):
        return (
            "ListenIP=127.0.0.1\nListenPort=%d\n"
            "LogType=file\nLogFile=%s\nLogFileSize=0\nDebugLevel=3\n"
            "PidFile=%s\nSocketDir=%s\n"
            "DBHost=127.0.0.1\nDBPort=%d\nDBName=zabbix\nDBUser=zabbix\n"
            "StartPollers=2\nStartPollersUnreachable=1\nStartPreprocessors=2\n"
            "StartTrappers=1\nStartPingers=0\nStartDiscoverers=0\nStartHTTPPollers=0\n"
            "StartTimers=1\nStartEscalators=1\nStartAlerters=1\nStartLLDProcessors=1\n"
            "StartHistoryPollers=1\nStartDBSyncers=1\nStartReportWriters=0\n"
            "StartSNMPTrapper=1\nSNMPTrapperFile=%s\n"
            "HousekeepingFrequency=0\nCacheUpdateFrequency=1\nTimeout=4\n"
            "UnreachablePeriod=5\nUnavailableDelay=5\nUnreachableDelay=1\n"
            "TmpDir=%s\n%s%s" % (
                self.server_port, os.path.join(self.h.dir, "zabbix_server.log"),
                os.path.join(self.dir, "zabbix_server.pid"), self.dir, self.pg_port,
                self.trap_file, self.dir, "AllowRoot=1\n" if self.root else "", extra))

    def start_server(self, extra=""):
        conf = os.path.join(self.dir, "zabbix_server.conf")
        with open(conf, "w") as fh:
            fh.write(self.server_conf(extra))
        # -f: in the foreground, so that the harness holds its process.
        self.server = subprocess.Popen([SERVER, "-f", "-c", conf], stdout=self.h.log("zabbix_out"),
                                       stderr=subprocess.STDOUT, cwd=self.dir)
        self.conf = conf
        twtest.wait_for("zabbix_server to start", lambda: self.server.poll() is not None or
                        "server #0 started [main process]" in self.log(), timeout=60, step=0.2)
        assert self.server.poll() is None, "zabbix_server exited:\n" + self.log()[-3000:]
        return self.server

    def log(self):
        try:
            with open(os.path.join(self.h.dir, "zabbix_server.log"), errors="replace") as fh:
                return fh.read()
        except FileNotFoundError:
            return ""

    def runtime(self, command):
        """zabbix_server -R COMMAND (config_cache_reload ...)."""
        r = subprocess.run([SERVER, "-c", self.conf, "-R", command], capture_output=True,
                           text=True, timeout=30)
        assert r.returncode == 0, "zabbix_server -R %s: %s%s" % (command, r.stdout, r.stderr)

    # ---- the frontend -------------------------------------------------------

    def copy_frontend(self):
        """The frontend's copy (38 MB, real files: it finds its own path),
        its CConfigFile pointed at this directory's zabbix.conf.php."""
        web = os.path.join(self.dir, "frontend")
        shutil.copytree(FRONTEND, web, symlinks=False)
        cls = os.path.join(web, "include", "classes", "core", "CConfigFile.php")
        conf = os.path.join(self.dir, "zabbix.conf.php")
        with open(cls) as fh:
            text = fh.read()
        patched = re.sub(r"const CONFIG_FILE_PATH = '[^']*';",
                         "const CONFIG_FILE_PATH = %s;" % php_str(conf), text)
        assert patched != text, "no CONFIG_FILE_PATH in %s" % cls
        with open(cls, "w") as fh:
            fh.write(patched)
        with open(conf, "w") as fh:
            fh.write("<?php\n$DB['TYPE'] = ZBX_DB_POSTGRESQL;\n$DB['SERVER'] = '127.0.0.1';\n"
                     "$DB['PORT'] = '%d';\n$DB['DATABASE'] = 'zabbix';\n$DB['USER'] = 'zabbix';\n"
                     "$DB['PASSWORD'] = '';\n$DB['SCHEMA'] = '';\n$DB['ENCRYPTION'] = false;\n"
                     "$DB['KEY_FILE'] = '';\n$DB['CERT_FILE'] = '';\n$DB['CA_FILE'] = '';\n"
                     "$DB['VERIFY_HOST'] = false;\n$DB['CIPHER_LIST'] = '';\n"
                     "$DB['VAULT_URL'] = '';\n$DB['VAULT_DB_PATH'] = '';\n"
                     "$DB['VAULT_TOKEN'] = '';\n$DB['DOUBLE_IEEE754'] = true;\n"
                     "$ZBX_SERVER = '127.0.0.1';\n$ZBX_SERVER_PORT = '%d';\n"
                     "$ZBX_SERVER_NAME = 'tunewatch test';\n"
                     "$IMAGE_FORMAT_DEFAULT = IMAGE_FORMAT_PNG;\n" % (self.pg_port,
                                                                       self.server_port))

    def start_frontend(self):
        web = os.path.join(self.dir, "frontend")
        if self.copying is not None:
            self.copying.join(timeout=300)
            self.copying = None
        else:
            self.copy_frontend()
        assert os.path.exists(os.path.join(self.dir, "zabbix.conf.php")), "no frontend copied"
        if self.localedef is not None:
            self.localedef.wait(timeout=300)
        ini = os.path.join(self.dir, "php.ini")
        with open(ini, "w") as fh:
            # What the frontend's setup checks ask of PHP.
            fh.write("memory_limit = 256M\npost_max_size = 16M\nmax_execution_time = 300\n"
                     "max_input_time = 300\ndate.timezone = UTC\n"
                     # Every warning and notice to a file the test reads.
                     "display_errors = Off\nlog_errors = On\nerror_reporting = E_ALL\n"
                     "error_log = %s\n" % os.path.join(self.h.dir, "php-errors.log"))
        # Its access log is not a .log: the harness prints every .log of a
        # failed test, and this one is a line a request.
        self.web_out = open(os.path.join(self.h.dir, "php-server.out"), "ab")
        self.web = subprocess.Popen(["php", "-c", ini, "-S", "127.0.0.1:%d" % self.web_port,
                                     "-t", web], stdout=self.web_out,
                                    stderr=subprocess.STDOUT, cwd=web, start_new_session=True,
                                    env=dict(os.environ, PHP_CLI_SERVER_WORKERS="2",
                                             LOCPATH=self.locpath))
        twtest.wait_for("the frontend on %s" % self.url, lambda: self.web.poll() is not None or
                        self._apiinfo() is not None, timeout=30, step=0.2)
        assert self.web.poll() is None, "php -S exited"

    def _apiinfo(self):
        try:
            return self.call("apiinfo.version", {}, auth=False)
        except (OSError, ApiError, ValueError):
            return None

    def call(self, method, params, auth=True):
        body = {"jsonrpc": "2.0", "method": method, "params": params, "id": 1}
        if auth:
            body["auth"] = self.auth
        req = urllib.request.Request(self.url + "/api_jsonrpc.php", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json-rpc"})
        with urllib.request.urlopen(req, timeout=300) as r:
            doc = json.loads(r.read().decode("utf-8", "replace"))
        if "error" in doc:
            raise ApiError("%s: %s" % (method, doc["error"]))
        return doc["result"]

    def login(self):
        self.auth = self.call("user.login", {"username": "Admin", "password": "zabbix"},
                              auth=False)
        # The server's own host (data.sql's "Zabbix server", which polls a
        # Zabbix agent that is not here) is disabled: its items' errors
        # would fill the log the test reads.
        own = self.call("host.get", {"filter": {"host": "Zabbix server"}, "output": ["hostid"]})
        for host in own:
            self.call("host.update", {"hostid": host["hostid"], "status": 1})
        me = self.call("user.get", {"filter": {"username": "Admin"}, "output": ["userid"]})
        # The Problems view's filter folded (the frontend's own stored
        # preference; the API has no method for it), so that a picture
        # shows the problems.
        self.psql("insert into profiles (profileid, userid, idx, value_int, type) values "
                  "(900001, %d, 'web.monitoring.problem.expanded', 0, 2)" % int(me[0]["userid"]))
        return self.auth

    # ---- a picture ----------------------------------------------------------

    def screenshot(self, path, page="zabbix.php?action=problem.view&show_opdata=1",
                   size=(1600, 700)):
        """Headless Chromium's PNG of a page of the frontend, as Admin: the
        login form's fields go in the URL of index.php (it reads them from
        the request, GET or POST), whose 'request' is the page to go to
        after; a fresh profile, nothing fetched but from 127.0.0.1."""
        chromium = twtest.which("chromium") or twtest.which("chromium-browser")
        if not chromium:
            raise twtest.Skip("chromium is needed for the picture (Debian: apt-get install "
                              "chromium)")
        url = self.url + "/index.php?" + urllib.parse.urlencode(
            {"name": "Admin", "password": "zabbix", "enter": "Sign in", "request": page})
        profile = os.path.join(self.dir, "chromium-profile")
        r = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                            "--disable-background-networking", "--disable-component-update",
                            "--disable-sync", "--no-first-run", "--no-default-browser-check",
                            "--hide-scrollbars", "--user-data-dir=" + profile,
                            "--window-size=%d,%d" % size, "--virtual-time-budget=5000",
                            "--screenshot=" + path, url],
                           capture_output=True, text=True, timeout=180, cwd=self.dir)
        with open(os.path.join(self.h.dir, "chromium.log"), "w") as fh:
            fh.write(r.stdout + r.stderr)
        assert r.returncode == 0 and os.path.exists(path), "chromium: %s%s" % (r.stdout,
                                                                              r.stderr[-2000:])
        return path

    # ---- the SNMP trapper's feed -------------------------------------------

    def start_trapd(self):
        """snmptrapd on 127.0.0.1 with contrib/snmptrapd/snmptrapd.conf, its
        traphandle snmptt with an snmptt.ini of the test's whose event
        definitions are contrib/zabbix/tunewatch-snmptt.conf and whose log
        is zabbix_server's SNMPTrapperFile. A sentence saying what ran."""
        snmptrapd, snmptt = twtest.which("snmptrapd"), twtest.which("snmptt")
        if not snmptrapd or not snmptt:
            raise twtest.Skip("snmptrapd and snmptt are needed (Debian: apt-get install "
                              "snmptrapd snmptt)")
        ini = os.path.join(self.dir, "snmptt.ini")
        with open(ini, "w") as fh:
            fh.write("[General]\nmode = standalone\nnet_snmp_perl_enable = 0\n"
                     "dns_enable = 0\nmultiple_event = 1\n"
                     "date_time_format = %%H:%%M:%%S %%Y/%%m/%%d\n"
                     "[Logging]\nstdout_enable = 0\nlog_enable = 1\nlog_file = %s\n"
                     "unknown_trap_log_enable = 1\nunknown_trap_log_file = %s\n"
                     "syslog_enable = 0\nsyslog_system_enable = 0\nlog_system_enable = 0\n"
                     "[Debugging]\nDEBUGGING = 0\n"
                     "[TrapFiles]\nsnmptt_conf_files = <<END\n%s\nEND\n"
                     % (self.trap_file, os.path.join(self.h.dir, "snmptt-unknown.log"),
                        os.path.join(twtest.TOP_SRCDIR, "contrib", "zabbix",
                                     "tunewatch-snmptt.conf")))
        with open(os.path.join(twtest.TOP_SRCDIR, "contrib", "snmptrapd", "snmptrapd.conf")) as fh:
            text = fh.read()
        assert "/usr/sbin/snmptt --ini=/etc/snmp/snmptt.ini" in text, "contrib's snmptrapd.conf"
        conf = os.path.join(self.dir, "snmptrapd.conf")
        with open(conf, "w") as fh:
            fh.write(text.replace("/usr/sbin/snmptt --ini=/etc/snmp/snmptt.ini",
                                  "%s --ini=%s" % (snmptt, ini)) +
                     "\ndoNotRetainNotificationLogs yes\n")
        self.trap_port = twtest.free_port()
        log = os.path.join(self.h.dir, "snmptrapd.log")
        self.trapd = subprocess.Popen(
            [snmptrapd, "-f", "-Lf", log, "-C", "-c", conf, "-On", "-m", "", "-p",
             os.path.join(self.dir, "snmptrapd.pid"), "udp:127.0.0.1:%d" % self.trap_port],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
            env=dict(os.environ, MIBS="", SNMP_PERSISTENT_DIR=os.path.join(self.dir, "trap")))
        self.h.procs.append(self.trapd)

        def started():
            try:
                with open(log, errors="replace") as fh:
                    return "NET-SNMP version" in fh.read()
            except FileNotFoundError:
                return False
        twtest.wait_for("snmptrapd to start", lambda: self.trapd.poll() is not None or started())
        assert self.trapd.poll() is None, "snmptrapd exited"
        return ("contrib/snmptrapd/snmptrapd.conf and snmptt with "
                "contrib/zabbix/tunewatch-snmptt.conf")

    def php_log(self):
        try:
            with open(os.path.join(self.h.dir, "php-errors.log"), errors="replace") as fh:
                return fh.read()
        except FileNotFoundError:
            return ""

    # ---- stopping -----------------------------------------------------------

    def stop(self):
        """zabbix_server, the web server, then PostgreSQL (fast shutdown)."""
        if self.web is not None and self.web.poll() is None:
            # php -S's workers are its children, in its own session.
            try:
                os.killpg(self.web.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for p, sig in ((self.server, signal.SIGTERM), (self.web, signal.SIGTERM),
                       (self.pg, signal.SIGINT)):
            if p is not None:
                self.h.stop(p, sig, timeout=30)
                if p in self.h.procs:
                    self.h.procs.remove(p)
        if self.web_out is not None:
            self.web_out.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        return False


def php_str(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"

