#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""contrib/icinga2/tunewatch.conf in an Icinga 2 cluster: a master and a
satellite, two icinga2 daemons on 127.0.0.1, each with its own API port,
its own certificate (`icinga2 pki new-ca` on the master, then `pki
new-cert` and `pki sign-csr` for each node), its own directories, run as
the current user; the set-up contrib/icinga2/README.cluster.md describes:

- zone "master" (endpoint tw-master) and its child zone "satellite"
  (endpoint tw-satellite), and a global zone "global-templates" that holds
  tunewatch.conf, so that every node knows the CheckCommands;
- host tw-host and its service "message buffers" (tunewatch-dblock) in the
  master's zones.d/satellite: synced to the satellite, which schedules and
  runs the check against tunewatchd and sends the result to the master;
- host tw-remote and its service "disk latency" (tunewatch-disklatency) in
  the master's own zone with command_endpoint = "tw-satellite": the master
  schedules, the satellite runs the plugin.

The master's REST API (an ApiUser of the test's own, TLS verified against
the cluster's CA) must then hold, for both services, check_source
tw-satellite, and the output and performance data that the same check
prints when run directly against the same frozen sample (tunewatchd
--interval 60): the long output and every perfdata item intact. Neither
daemon may log a warning or worse about the configuration or the cluster
while it runs."""

import base64
import json
import os
import shutil
import ssl
import subprocess
import urllib.parse
import urllib.request

import agent_walk
import monitoring as mon
import plugin_common as pc
import promtest
import twtest

CONTRIB = os.path.join(os.path.abspath(twtest.TOP_SRCDIR), "contrib", "icinga2", "tunewatch.conf")
PASSWORD = "tw-cluster-test"
# Lines a cluster logs in its normal course: a node that is not up yet, and
# a connection torn down as the satellite restarts with the synced
# configuration or the other daemon stops.
EXPECTED = ("critical/ApiListener: Cannot connect to host '127.0.0.1' on port",
            "warning/JsonRpcConnection: API client disconnected for identity 'tw-",
            "warning/ApiListener: Removing API client for endpoint 'tw-")


class Node:
    def __init__(self, binary, base, name, zone, port):
        self.bin, self.name, self.zone, self.port = binary, name, zone, port
        self.d = os.path.join(base, name)
        self.dirs = {k: os.path.join(self.d, k.lower()) for k in (
            "DataDir", "LogDir", "CacheDir", "SpoolDir", "InitRunDir")}
        self.dirs["ZonesDir"] = os.path.join(self.d, "zones.d")
        for p in self.dirs.values():
            os.makedirs(p)
        os.makedirs(os.path.join(self.dirs["DataDir"], "certs"))
        user, group = mon.user_group()
        self.defines = []
        for k, p in sorted(self.dirs.items()):
            self.defines += ["--define", "%s=%s" % (k, p)]
        self.defines += ["--define", "RunAsUser=" + user, "--define", "RunAsGroup=" + group]
        self.conf = os.path.join(self.d, "icinga2.conf")
        self.log = os.path.join(self.d, "daemon.log")
        self.proc = None

    def icinga(self, *args, **kw):
        r = subprocess.run([self.bin] + list(args) + self.defines, capture_output=True,
                           text=True, timeout=120, cwd=self.d, **kw)
        assert r.returncode == 0, "icinga2 %s:\n%s%s" % (" ".join(args), r.stdout, r.stderr)
        return r.stdout + r.stderr

    def cert(self, ca_node):
        """This node's key and a certificate signed by ca_node's CA, where
        the ApiListener looks for them (DataDir/certs)."""
        certs = os.path.join(self.dirs["DataDir"], "certs")
        key, csr = os.path.join(certs, self.name + ".key"), os.path.join(self.d, "node.csr")
        self.icinga("pki", "new-cert", "--cn", self.name, "--key", key, "--csr", csr)
        ca_node.icinga("pki", "sign-csr", "--csr", csr, "--cert",
                       os.path.join(certs, self.name + ".crt"))
        shutil.copy(os.path.join(ca_node.dirs["DataDir"], "ca", "ca.crt"),
                    os.path.join(certs, "ca.crt"))

    def write(self, text):
        with open(self.conf, "w") as fh:
            fh.write(text)

    def zone_file(self, zone, name, text):
        d = os.path.join(self.dirs["ZonesDir"], zone)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, name), "w") as fh:
            fh.write(text)

    def validate(self):
        out = self.icinga("daemon", "-C", "-c", self.conf)
        bad = mon.complaints(out, mon.ICINGA_BAD)
        assert not bad, "%s: icinga2 daemon -C:\n%s" % (self.name, out)
        return out

    def start(self, h):
        with open(self.log, "w") as fh:
            self.proc = subprocess.Popen([self.bin, "daemon", "-x", "notice", "-c", self.conf] +
                                         self.defines, stdout=fh, stderr=subprocess.STDOUT,
                                         cwd=self.d, start_new_session=True)
        return self.proc

    def stop(self):
        if self.proc is not None:
            mon.stop_group(self.proc)

    def complaints(self):
        with open(self.log, errors="replace") as fh:
            lines = mon.complaints(fh.read(), [r"\b(warning|critical)/"])
        return [l for l in lines if not any(e in l for e in EXPECTED)]


def zones(master, satellite):
    return ('object Endpoint "%s" { host = "127.0.0.1"; port = %d }\n'
            'object Endpoint "%s" { host = "127.0.0.1"; port = %d }\n'
            'object Zone "master" { endpoints = [ "%s" ] }\n'
            'object Zone "satellite" { endpoints = [ "%s" ]; parent = "master" }\n'
            'object Zone "global-templates" { global = true }\n'
            % (master.name, master.port, satellite.name, satellite.port, master.name,
               satellite.name))


def node_conf(node, zones_text, accept, extra=""):
    return ('const PluginDir = %s\nconst NodeName = %s\nconst ZoneName = %s\n'
            'include <itl>\n%s'
            'object ApiListener "api" {\n\tbind_host = "127.0.0.1"\n\tbind_port = %d\n'
            '\taccept_config = %s\n\taccept_commands = %s\n}\n'
            'object CheckerComponent "checker" { }\n%s'
            % (json.dumps(pc.PLUGINS), json.dumps(node.name), json.dumps(node.zone), zones_text,
               node.port, accept, accept, extra))


def api(master, path, ca):
    ctx = ssl.create_default_context(cafile=ca)
    ctx.check_hostname = False   # the certificate names tw-master, not 127.0.0.1
    req = urllib.request.Request("https://127.0.0.1:%d/v1/%s" % (master.port, path), headers={
        "Accept": "application/json",
        "Authorization": "Basic " + base64.b64encode(("tw-test:" + PASSWORD).encode()).decode()})
    try:
        with urllib.request.urlopen(req, context=ctx, timeout=10) as r:
            return json.loads(r.read().decode("utf-8"))
    except (OSError, ValueError):
        return None


def result(master, ca, host, service):
    doc = api(master, "objects/services/" + urllib.parse.quote("%s!%s" % (host, service)) +
              "?attrs=last_check_result", ca)
    if not doc or not doc.get("results"):
        return None
    return doc["results"][0]["attrs"].get("last_check_result")


def test():
    icinga = twtest.which("icinga2")
    if not icinga:
        raise twtest.Skip("icinga2 is needed (Debian: apt-get install icinga2-bin)")
    with twtest.Harness("icinga-cluster") as h:
        # Two Icinga nodes can take more than a minute to start and sync
        # on a busy machine: no sample of the agent's may fall between the
        # direct runs and the master's results, which are compared.
        agent_walk.start_changed(h, interval=1800, window=3600)
        master = Node(icinga, h.dir, "tw-master", "master", promtest.free_tcp_port())
        satellite = Node(icinga, h.dir, "tw-satellite", "satellite", promtest.free_tcp_port())
        master.icinga("pki", "new-ca")
        master.cert(master)
        satellite.cert(master)
        ca = os.path.join(master.dirs["DataDir"], "certs", "ca.crt")

        z = zones(master, satellite)
        master.write(node_conf(master, z, "false", (
            'object ApiUser "tw-test" {\n\tpassword = %s\n'
            '\tpermissions = [ "objects/query/*", "status/query" ]\n}\n'
            % json.dumps(PASSWORD))))
        # The master's own zone: it schedules, the satellite runs the plugin.
        master.zone_file("master", "tw-remote.conf", (
            'object Host "tw-remote" {\n\taddress = "127.0.0.1"\n\tcheck_command = "dummy"\n'
            '\tenable_active_checks = false\n}\n'
            'object Service "disk latency" {\n\thost_name = "tw-remote"\n'
            '\tcheck_command = "tunewatch-disklatency"\n\tcommand_endpoint = %s\n'
            '\tvars.tunewatch_port = %d\n\tcheck_interval = 2s\n\tretry_interval = 2s\n}\n'
            % (json.dumps(satellite.name), h.port)))
        # What the master syncs: the CheckCommands to every node, the
        # satellite's host and service to the satellite.
        with open(CONTRIB) as fh:
            master.zone_file("global-templates", "tunewatch.conf", fh.read())
        master.zone_file("satellite", "tw-host.conf", (
            'object Host "tw-host" {\n\taddress = "127.0.0.1"\n\tcheck_command = "dummy"\n'
            '\tenable_active_checks = false\n}\n'
            'object Service "message buffers" {\n\thost_name = "tw-host"\n'
            '\tcheck_command = "tunewatch-dblock"\n\tvars.tunewatch_port = %d\n'
            '\tcheck_interval = 2s\n\tretry_interval = 2s\n}\n' % h.port))
        satellite.write(node_conf(satellite, z, "true"))
        text = master.validate()
        assert "Instantiated 2 Services" in text or "Instantiated 2 Service" in text, text
        satellite.validate()

        direct = {
            ("tw-host", "message buffers"): pc.run("check_dblock", ["-p", str(h.port)]),
            ("tw-remote", "disk latency"): pc.run("check_disklatency", ["-p", str(h.port)]),
        }
        try:
            h.procs.append(satellite.start(h))
            h.procs.append(master.start(h))
            got = {}
            for (host, service), out in direct.items():
                # Until the satellite has the global zone, a command
                # endpoint's check ends "Check command ... does not exist":
                # wait for the plugin's own answer.
                word = out.first.split()[0]
                got[(host, service)] = twtest.wait_for(
                    "the master's result of %s!%s from the satellite" % (host, service),
                    lambda: (lambda r: r if r and r.get("check_source") == satellite.name and
                             r.get("output", "").startswith(word + " ") else None)(
                        result(master, ca, host, service)),
                    timeout=90, step=1.0)
        finally:
            master.stop()
            satellite.stop()
        for n in (master, satellite):
            bad = n.complaints()
            assert not bad, "%s logged:\n%s" % (n.name, "\n".join(bad))
        for key, out in direct.items():
            r = got[key]
            # Icinga keeps the status line up to the '|', blank included.
            first, _, rest = r["output"].partition("\n")
            assert first.rstrip() == out.summary_line, (key, first, out.summary_line)
            assert rest.split("\n") == out.long, (key, rest, out.long)
            assert r["exit_status"] == out.rc, (key, r["exit_status"], out.rc)
            perf = [p.text for p in out.perf]
            assert r["performance_data"] == perf, (key, r["performance_data"], perf)
            assert any(l.startswith(("tune: ", "  finding: ")) for l in out.long), out
            promtest.say("%s!%s: run by %s, state %d, %d lines of long output and %d perfdata "
                         "items intact at the master" % (key[0], key[1], r["check_source"],
                                                         r["exit_status"], len(out.long),
                                                         len(perf)))


if __name__ == "__main__":
    twtest.main(test)
