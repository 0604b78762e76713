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

import grp
import json
import os
import pwd
import re
import signal
import subprocess

import agent_walk
import plugin_common as pc
import twtest

ICINGA_CONF = os.path.join(twtest.TOP_SRCDIR, "contrib", "icinga2", "tunewatch.conf")
NAGIOS_CFG = os.path.join(twtest.TOP_SRCDIR, "contrib", "nagios", "tunewatch.cfg")


def user_group():
    return pwd.getpwuid(os.getuid()).pw_name, grp.getgrgid(os.getgid()).gr_name


def plugin(name):
    return os.path.join(pc.PLUGINS, name)


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
        Case("buffer cache", "check_bufcache", "tunewatch-bufcache",
             {"tunewatch_extra_opts": "tw@" + ini, "bufcache_warning": "96:"},
             ["--extra-opts", "tw@" + ini, "-C", "public", "-H", "127.0.0.1", "-c", "80:", "-w",
              "96:"],
             "check_tunewatch_bufcache!public!96:!80:!--extra-opts tw@" + ini,
             ["-H", "127.0.0.1", "-C", "public", "-w", "96:", "-c", "80:", "--extra-opts",
              "tw@" + ini]),
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


def stop_group(p, timeout=15):
    """Stop a daemon this test started, then anything left in its session."""
    if p.poll() is None:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if p.poll() is None:
        p.wait(timeout=5)


def complaints(text, patterns):
    return [l for l in text.splitlines() if any(re.search(p, l) for p in patterns)]


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
    with open(NAGIOS_CFG) as fh:
        text = fh.read()
    lines = re.findall(r"^\s*command_line\s+\$USER1\$/(check_\w+) (.*)$", text, re.M)
    assert len(lines) == 6, lines
    for check, rest in lines:
        assert check in pc.CHECKS, check
        groups, _ = help_options(check)
        for opt in re.findall(r"(?:^| )(--?[A-Za-z][A-Za-z0-9-]*)", rest):
            assert any(opt in g for g in groups), "%s: %s is not an option of %s" % (
                NAGIOS_CFG, opt, check)


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
    d = os.path.join(tmp, "icinga2")
    dirs = {k: os.path.join(d, k.lower()) for k in ("DataDir", "LogDir", "CacheDir", "SpoolDir",
                                                   "InitRunDir")}
    for p in dirs.values():
        os.makedirs(p)
    user, group = user_group()
    defines = []
    for k, p in sorted(dirs.items()):
        defines += ["--define", "%s=%s" % (k, p)]
    defines += ["--define", "RunAsUser=" + user, "--define", "RunAsGroup=" + group]
    conf = os.path.join(d, "icinga2.conf")
    with open(conf, "w") as fh:
        fh.write('const PluginDir = %s\n' % json.dumps(pc.PLUGINS))
        fh.write('include <itl>\n')
        fh.write('include %s\n\n' % json.dumps(ICINGA_CONF))
        fh.write('object CheckerComponent "checker" { }\n\n')
        fh.write('object Host "tw-host" {\n\taddress = "127.0.0.1"\n\tcheck_command = "dummy"\n'
                 '\tenable_active_checks = false\n}\n')
        for c in all_cases:
            fh.write('\nobject Service %s {\n\thost_name = "tw-host"\n\tcheck_command = %s\n'
                     '\tcheck_interval = 1s\n\tretry_interval = 1s\n' % (
                         json.dumps(c.name), json.dumps(c.icinga_command)))
            for k, v in sorted(c.icinga_vars.items()):
                fh.write('\tvars.%s = %s\n' % (k, icinga_value(v)))
            fh.write('}\n')

    r = subprocess.run([icinga, "daemon", "-C", "-c", conf] + defines, capture_output=True,
                       text=True, timeout=60)
    text = r.stdout + r.stderr
    bad = complaints(text, [r"\b(warning|critical)/"])
    assert r.returncode == 0 and not bad, "icinga2 daemon -C:\n%s" % text
    assert "Instantiated %d Services." % len(all_cases) in text, text
    icinga_covers_help(dirs["CacheDir"], all_cases)

    # Run the checks for real, until each has finished once.
    log = os.path.join(d, "daemon.log")
    with open(log, "w") as out:
        p = subprocess.Popen([icinga, "daemon", "-x", "notice", "-c", conf] + defines,
                             stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        def finished():
            with open(log, errors="replace") as fh:
                text = fh.read()
            done = [l for l in text.splitlines() if "terminated with exit code" in l]
            quoted = [" ".join("'%s'" % a for a in c.icinga_argv) for c in all_cases]
            return all(any(q in l for l in done) for q in quoted)
        twtest.wait_for("icinga2 to run every check", finished, timeout=30, step=0.2)
    finally:
        stop_group(p)
    with open(log, errors="replace") as fh:
        text = fh.read()
    bad = complaints(text, [r"\b(warning|critical)/"])
    assert not bad, "icinga2 complained:\n%s" % "\n".join(bad)

    state = read_state(os.path.join(dirs["DataDir"], "icinga2.state"))
    for c in all_cases:
        svc = state.get("tw-host!" + c.name)
        assert svc, "no state for %r" % c.name
        res = svc["update"]["last_check_result"]
        assert res["command"] == c.icinga_argv, "service %r: icinga2 ran\n%s\nwant\n%s" % (
            c.name, res["command"], c.icinga_argv)
        lines = res["output"].split("\n")
        lines[0] = lines[0].rstrip()
        # Icinga keeps perfdata items one by one, quoting only labels
        # that need it.
        perf = [i if i.startswith("'") else "'%s'=%s" % tuple(i.split("=", 1))
                for i in res["performance_data"]]
        same_as_direct(c, c.icinga_argv, res["exit_status"], lines, " ".join(perf), "icinga2")
        c.icinga_state = res["exit_status"]


# ---- Nagios -----------------------------------------------------------------------------


OBJECTS = """define timeperiod {
	timeperiod_name	24x7
	alias		always
	sunday		00:00-24:00
	monday		00:00-24:00
	tuesday		00:00-24:00
	wednesday	00:00-24:00
	thursday	00:00-24:00
	friday		00:00-24:00
	saturday	00:00-24:00
}

define command {
	command_name	notify-nobody
	command_line	/bin/true
}

define contact {
	contact_name			tw-admin
	host_notifications_enabled	0
	service_notifications_enabled	0
	host_notification_period	24x7
	service_notification_period	24x7
	host_notification_options	n
	service_notification_options	n
	host_notification_commands	notify-nobody
	service_notification_commands	notify-nobody
}

# What Nagios' sample templates.cfg provides, as far as tunewatch-service needs.
define service {
	name			generic-service
	check_period		24x7
	notification_period	24x7
	notification_interval	0
	contacts		tw-admin
	register		0
}

define host {
	host_name		tw-host
	address			127.0.0.1
	max_check_attempts	1
	check_period		24x7
	notification_interval	0
	notification_period	24x7
	contacts		tw-admin
	active_checks_enabled	0
}
"""


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
    d = os.path.join(tmp, "nagios")
    os.makedirs(os.path.join(d, "checkresults"))
    user, group = user_group()
    cfg = os.path.join(d, "nagios.cfg")
    settings = {
        "log_file": "nagios.log", "resource_file": "resource.cfg", "status_file": "status.dat",
        "temp_file": "nagios.tmp", "temp_path": "", "lock_file": "nagios.lock",
        "state_retention_file": "retention.dat", "object_cache_file": "objects.cache",
        "precached_object_file": "objects.precache", "command_file": "nagios.cmd",
        "check_result_path": "checkresults", "query_socket": "nagios.qh",
        "debug_file": "nagios.debug", "log_archive_path": "",
    }
    with open(cfg, "w") as fh:
        for k, v in settings.items():
            fh.write("%s=%s\n" % (k, os.path.join(d, v) if v else d))
        fh.write("cfg_file=%s\ncfg_file=%s\n" % (os.path.join(d, "objects.cfg"), NAGIOS_CFG))
        fh.write("nagios_user=%s\nnagios_group=%s\n" % (user, group))
        fh.write("retain_state_information=0\nuse_syslog=0\ncheck_external_commands=0\n"
                 "enable_notifications=0\ninterval_length=1\nstatus_update_interval=1\n"
                 "service_inter_check_delay_method=n\nmax_service_check_spread=1\n"
                 "debug_level=0\nillegal_macro_output_chars=`~$&|'\"<>\n")
    with open(os.path.join(d, "resource.cfg"), "w") as fh:
        fh.write("$USER1$=%s\n" % pc.PLUGINS)
    with open(os.path.join(d, "objects.cfg"), "w") as fh:
        fh.write(OBJECTS)
        for c in all_cases:
            fh.write("\ndefine service {\n\tuse\t\t\ttunewatch-service\n\thost_name\t\ttw-host\n"
                     "\tservice_description\t%s\n\tcheck_command\t\t%s\n}\n" % (
                         c.name, c.nagios_command))

    r = subprocess.run([nagios, "-v", cfg], capture_output=True, text=True, timeout=60, cwd=d)
    text = r.stdout + r.stderr
    bad = complaints(text, [r"^\s*(Warning|Error)\b", r"Total (Warnings|Errors): *[1-9]"])
    assert r.returncode == 0 and not bad, "nagios4 -v:\n%s" % text
    assert "Total Warnings: 0" in text and re.search(r"Total Errors: +0", text), text
    assert "Checked %d services." % len(all_cases) in text, text
    nagios_options_exist()

    status = os.path.join(d, "status.dat")
    p = subprocess.Popen([nagios, cfg], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                         cwd=d, start_new_session=True)
    try:
        # Nagios removes status.dat when it stops: keep what it said.
        def checked():
            st = read_status(status)
            if all(st.get(c.name, {}).get("has_been_checked") == "1" for c in all_cases):
                return st
            return None
        results = twtest.wait_for("nagios4 to run every check", checked, timeout=30, step=0.2)
    finally:
        stop_group(p)
    with open(os.path.join(d, "nagios.log"), errors="replace") as fh:
        log = fh.read()
    bad = complaints(log, [r"\b(Warning|Error):"])
    assert not bad, "nagios4 complained:\n%s" % "\n".join(bad)

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
    icinga = twtest.which("icinga2")
    nagios = twtest.which("nagios4") or twtest.which("nagios")
    if not icinga and not nagios:
        raise twtest.Skip("neither icinga2 (Debian: icinga2-bin) nor nagios4 (nagios4-core) is "
                          "installed")
    with twtest.Harness("config-check") as h:
        root = pc.writable(h.copy_fixture("agent"))
        h.start_snmpd()
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=300)
        agent_walk.change_fixture(root)
        h.sample_now()
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
