#!/usr/bin/env python3
"""contrib/icinga2/tunewatch.conf and contrib/nagios/tunewatch.cfg, checked by
the real daemons, run as the current user with everything in a temporary
directory (nothing under /etc or /var is read or written):

1. Icinga 2: `icinga2 daemon -C` on a minimal icinga2.conf that includes the
   ITL and the file under test and defines a host and a service for each
   CheckCommand (SNMP v2c with the defaults, v1 with -v and a critical
   threshold, --extra-opts, --local). Then the daemon runs those checks
   against tunewatchd behind a real snmpd; the command lines it built
   (from its state file) are compared with the ones the definitions mean,
   and its results with running the same command lines directly.
2. Nagios: `nagios4 -v` on a minimal nagios.cfg with the file under test
   (commands and the service template) and a contact, timeperiod, host and
   services of its own; then nagios4 runs the services, and status.dat
   must hold what the plugins print for the same arguments.
Any warning or error from either daemon fails the test. Each part is
skipped, with a message, when its daemon is not installed (Debian:
icinga2-bin, nagios4-core); then the test exits 77 after the other part."""

import json
import os
import re
import subprocess

import agent_walk
import monitoring as mon
import plugin_common as pc
import twtest

def plugin(name):
    return os.path.join(pc.PLUGINS, name)


FAR = "1000000000"


class Case:
    """One service: how each daemon is told to run it, and the command line
    that must come out."""

    def __init__(self, name, check, icinga_command, icinga_vars, icinga_argv, nagios_command,
                 nagios_argv):
        self.name = name
        self.check = check
        self.icinga_command = icinga_command
        self.icinga_vars = icinga_vars
        self.icinga_argv = [plugin(check)] + icinga_argv
        self.nagios_command = nagios_command
        self.nagios_argv = [plugin(check)] + nagios_argv


def cases(h, ini, root):
    port = str(h.port)
    proc, sys_ = os.path.join(root, "proc"), os.path.join(root, "sys")
    # Icinga sorts arguments by key (no "order" is set): "--long" options,
    # then upper case, then lower case.
    return [
        Case("disk latency", "check_disklatency", "tunewatch-disklatency",
             {"tunewatch_port": h.port},
             ["--write-critical", "200", "--write-warning", "50", "-C", "public", "-H",
              "127.0.0.1", "-c", "50", "-p", port, "-w", "20"],
             "check_tunewatch_disklatency!public!20!50!-p " + port,
             ["-H", "127.0.0.1", "-C", "public", "-w", "20", "-c", "50", "-p", port]),
        Case("message buffers", "check_dblock", "tunewatch-dblock",
             {"tunewatch_port": h.port, "tunewatch_protocol": "1", "tunewatch_verbose": True,
              "dblock_critical": 100},
             ["-C", "public", "-H", "127.0.0.1", "-P", "1", "-c", "100", "-p", port, "-v", "-w",
              "0"],
             "check_tunewatch_dblock!public!0!100!-p %s -P 1 -v" % port,
             ["-H", "127.0.0.1", "-C", "public", "-w", "0", "-c", "100", "-p", port, "-P", "1",
              "-v"]),
        # The hit ratio, which has no default, given; the fixture's
        # refaults, which the defaults would judge, out of reach.
        Case("buffer cache", "check_bufcache", "tunewatch-bufcache",
             {"tunewatch_extra_opts": "tw@" + ini, "bufcache_warning": "96:",
              "bufcache_refault_warning": FAR, "bufcache_refault_critical": FAR},
             ["--extra-opts", "tw@" + ini, "--refault-critical", FAR, "--refault-warning", FAR,
              "-C", "public", "-H", "127.0.0.1", "-w", "96:"],
             "check_tunewatch_bufcache!public!96:!80:!--extra-opts tw@%s --refault-warning %s "
             "--refault-critical %s" % (ini, FAR, FAR),
             ["-H", "127.0.0.1", "-C", "public", "-w", "96:", "-c", "80:", "--extra-opts",
              "tw@" + ini, "--refault-warning", FAR, "--refault-critical", FAR]),
        Case("local dblock", "check_dblock", "tunewatch-dblock",
             {"tunewatch_local": True, "tunewatch_delay": 1, "tunewatch_proc_root": proc,
              "tunewatch_sys_root": sys_},
             ["--delay", "1", "--local", "--proc-root", proc, "--sys-root", sys_, "-w", "0"],
             "check_tunewatch_local_dblock!1!0!100!--proc-root %s --sys-root %s" % (proc, sys_),
             ["--local", "--delay", "1", "-w", "0", "-c", "100", "--proc-root", proc,
              "--sys-root", sys_]),
    ]


def icinga_value(v):
    if v is True or v is False:
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return json.dumps(v)


def same_as_direct(case, argv, rc, output, perfdata, what):
    """The daemon's result is what the plugin prints for that command line."""
    direct = pc.run(case.check, argv[1:])
    got = (rc, output, perfdata)
    want = (direct.rc, [direct.summary_line] + direct.long, direct.perftext)
    assert got == want, "%s, service %r: the daemon got\n%r\nthe plugin run directly:\n%r" % (
        what, case.name, got, want)
    return direct


def help_options(check):
    """The plugin's options as its --help lists them: a list of sets of
    spellings ({"-w", "--warning"}), and the defaults of -w and -c."""
    r = subprocess.run([plugin(check), "--help"], capture_output=True, text=True,
                       env=pc.plugin_env())
    groups = []
    for line in r.stdout.splitlines():
        if not re.match(r"^ --?[A-Za-z]", line):
            continue
        names = [re.match(r"(--?[A-Za-z][A-Za-z0-9-]*)", part).group(1)
                 for part in line.strip().split(", ")]
        if len(names) == 2 and not names[0].startswith("--") and names[1].startswith("--"):
            groups.append(set(names))
        else:
            groups.extend({n} for n in names)
    groups = [g for g in groups if not g & {"--help", "--version"}]
    defaults = {}
    for opt, word in (("-w, --warning", "Warning"), ("-c, --critical", "Critical")):
        m = re.search(re.escape(opt) + r"=RANGE\n\s+" + word + r" range for [^\n]*?"
                      r"(?: \(default ([^)]*)\))?\n", r.stdout)
        assert m, "%s --help has no %s" % (check, opt)
        defaults[opt[:2]] = m.group(1)
    return groups, defaults


def icinga_covers_help(cache_dir, all_cases):
    """Every CheckCommand argument is a plugin option, every plugin option
    has an argument, and the threshold defaults are the plugin's own."""
    objs = read_state(os.path.join(cache_dir, "icinga2.debug"))
    for check in sorted({c.check for c in all_cases}):
        name = "tunewatch-" + check[len("check_"):]
        props = objs[name]["properties"]
        assert props["command"] == [plugin(check)], props["command"]
        keys = set(props["arguments"])
        groups, defaults = help_options(check)
        for k in keys:
            assert any(k in g for g in groups), "%s: %s is not an option of %s" % (name, k, check)
        for g in groups:
            assert len(g & keys) == 1, "%s: no single argument for %s" % (name, "/".join(sorted(g)))
        prefix = check[len("check_"):] + "_"
        for opt, var in (("-w", "warning"), ("-c", "critical")):
            assert props["vars"].get(prefix + var) == defaults[opt], \
                "%s: vars.%s%s is %r, the plugin's default %r" % (
                    name, prefix, var, props["vars"].get(prefix + var), defaults[opt])


def nagios_options_exist():
    """Every option in the contrib file's command lines is the plugin's."""
    with open(mon.NAGIOS_CFG) as fh:
        text = fh.read()
    lines = re.findall(r"^\s*command_line\s+\$USER1\$/(check_\w+) (.*)$", text, re.M)
    assert len(lines) == 6, lines
    for check, rest in lines:
        assert check in pc.CHECKS, check
        groups, _ = help_options(check)
        for opt in re.findall(r"(?:^| )(--?[A-Za-z][A-Za-z0-9-]*)", rest):
            assert any(opt in g for g in groups), "%s: %s is not an option of %s" % (
                mon.NAGIOS_CFG, opt, check)


# ---- Icinga 2 ---------------------------------------------------------------------


def read_state(path):
    """The objects of an Icinga 2 state file (netstrings of JSON)."""
    with open(path) as fh:
        data = fh.read()
    objs, pos = {}, 0
    while pos < len(data):
        colon = data.index(":", pos)
        n = int(data[pos:colon])
        obj = json.loads(data[colon + 1:colon + 1 + n])
        objs[obj["name"]] = obj
        pos = colon + 1 + n + 1
    return objs


def check_icinga(icinga, h, tmp, all_cases):
    ic = mon.Icinga(icinga, tmp)
    services = ""
    for c in all_cases:
        services += ('\nobject Service %s {\n\thost_name = "tw-host"\n\tcheck_command = %s\n'
                     '\tcheck_interval = 1s\n\tretry_interval = 1s\n' % (
                         json.dumps(c.name), json.dumps(c.icinga_command)))
        for k, v in sorted(c.icinga_vars.items()):
            services += '\tvars.%s = %s\n' % (k, icinga_value(v))
        services += '}\n'
    ic.write([], services)
    text = ic.validate()
    assert "Instantiated %d Services." % len(all_cases) in text, text
    icinga_covers_help(ic.dirs["CacheDir"], all_cases)

    # Run the checks for real, until each has finished once.
    with ic.running():
        def finished():
            done = [l for l in ic.log_text().splitlines() if "terminated with exit code" in l]
            quoted = [" ".join("'%s'" % a for a in c.icinga_argv) for c in all_cases]
            return all(any(q in l for l in done) for q in quoted)
        twtest.wait_for("icinga2 to run every check", finished, timeout=30, step=0.2)

    state = read_state(os.path.join(ic.dirs["DataDir"], "icinga2.state"))
    for c in all_cases:
        svc = state.get("tw-host!" + c.name)
        assert svc, "no state for %r" % c.name
        res = svc["update"]["last_check_result"]
        assert res["command"] == c.icinga_argv, "service %r: icinga2 ran\n%s\nwant\n%s" % (
            c.name, res["command"], c.icinga_argv)
        lines = res["output"].split("\n")
        lines[0] = lines[0].rstrip()
        # Icinga keeps perfdata items one by one, quoting only labels
        # that need it: the checks' need none, so it keeps them as written.
        perf = list(res["performance_data"])
        same_as_direct(c, c.icinga_argv, res["exit_status"], lines, " ".join(perf), "icinga2")
        c.icinga_state = res["exit_status"]


# ---- Nagios -----------------------------------------------------------------------------


def read_status(path):
    """servicestatus blocks of status.dat, by service description."""
    try:
        with open(path, errors="replace") as fh:
            text = fh.read()
    except FileNotFoundError:
        return {}
    out = {}
    for block in re.findall(r"servicestatus \{\n(.*?)\n\s*\}", text, re.S):
        fields = {}
        for line in block.splitlines():
            k, _, v = line.strip().partition("=")
            fields[k] = v
        out[fields.get("service_description")] = fields
    return out


def check_nagios(nagios, h, tmp, all_cases):
    ng = mon.Nagios(nagios, tmp)
    ng.write("".join("\ndefine service {\n\tuse\t\t\ttunewatch-service\n"
                     "\thost_name\t\ttw-host\n\tservice_description\t%s\n"
                     "\tcheck_command\t\t%s\n}\n" % (c.name, c.nagios_command)
                     for c in all_cases))
    text = ng.validate()
    assert "Checked %d services." % len(all_cases) in text, text
    nagios_options_exist()

    with ng.running():
        # Nagios removes status.dat when it stops: keep what it said.
        def checked():
            st = read_status(ng.status)
            if all(st.get(c.name, {}).get("has_been_checked") == "1" for c in all_cases):
                return st
            return None
        results = twtest.wait_for("nagios4 to run every check", checked, timeout=30, step=0.2)

    for c in all_cases:
        s = results[c.name]
        assert s["check_command"] == c.nagios_command, s
        # Nagios keeps ';' out of the status line (it separates its log's
        # fields) and stores the long output with escaped newlines.
        direct = pc.run(c.check, c.nagios_argv[1:])
        got = (int(s["current_state"]), s["plugin_output"], s["long_plugin_output"],
               s["performance_data"])
        want = (direct.rc, direct.summary_line.replace(";", ":"),
                "\\n".join(direct.long), direct.perftext)
        assert got == want, "nagios4, service %r: status.dat has\n%r\nthe plugin run " \
                            "directly:\n%r" % (c.name, got, want)
        c.nagios_state = direct.rc


def test():
    icinga, nagios = mon.daemons()
    with twtest.Harness("config-check") as h:
        root = agent_walk.start_changed(h)
        ini = os.path.join(h.dir, "tunewatch.ini")
        with open(ini, "w") as fh:
            fh.write("[tw]\nport = %d\n" % h.port)
        all_cases = cases(h, ini, root)

        skipped = []
        if icinga:
            check_icinga(icinga, h, h.dir, all_cases)
        else:
            skipped.append("icinga2 is not installed (Debian: icinga2-bin)")
        if nagios:
            check_nagios(nagios, h, h.dir, all_cases)
        else:
            skipped.append("nagios4 is not installed (Debian: nagios4-core)")
        # What the services found: the fixture's figures, as in plugin_*.py.
        for c, want in zip(all_cases, (1, 2, 1, 0)):
            for daemon in ("icinga", "nagios"):
                got = getattr(c, daemon + "_state", want)
                assert got == want, "%s: %r ended %d, want %d" % (daemon, c.name, got, want)
        if skipped:
            raise twtest.Skip("; ".join(skipped) + ": that part was not checked")


if __name__ == "__main__":
    twtest.main(test)
