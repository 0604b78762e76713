/* SPDX-License-Identifier: ISC */
/* --extra-opts: plugin options read from an ini file, as the Monitoring
 * Plugins define it (https://www.monitoring-plugins.org/doc/extra-opts.html).
 *
 *   --extra-opts=[section][@file]
 *
 * reads the options of [section] (default: the plugin's name) from file
 * (default: the first that exists of the list below) and inserts them
 * right after argv[0], so that the rest of the command line, which comes
 * after them, wins where an option is given twice. Its main use is to keep
 * secrets (SNMPv3 pass phrases) off the command line, so no error message
 * ever quotes the file's contents, only its name and a line number.
 *
 * The ini file:
 *
 *   # comment            ; comment too (only at the start of a line:
 *                          values keep '#' and ';', pass phrases need them)
 *   [check_bufcache]
 *   hostname = db1       -> --hostname=db1
 *   authpassword=s3cr#t  -> --authpassword=s3cr#t
 *   verbose              -> --verbose
 *   verbose=             -> --verbose (the monitoring-plugins spelling)
 *   w = 80               -> -w80 (a one-letter key is a short option)
 *
 * Blanks around keys, values and section names are trimmed; values are
 * otherwise taken verbatim (no quotes are removed). A key is
 * [A-Za-z0-9][A-Za-z0-9._-]*. A section may appear several times; all its
 * parts count, in order. Keys may repeat, as options may on a command line.
 *
 * Errors (a one-line message in the caller's buffer; the plugin exits
 * UNKNOWN with it): no file found, a file that cannot be read, a section
 * that is not in the file, an empty file name ("section@"), and, because
 * the plugin cannot tell what was meant, a malformed line inside the
 * wanted section, an option before the first [section], and a malformed
 * [section] header anywhere. Malformed lines inside other sections belong
 * to other plugins and are ignored.
 *
 * The default file is, in this order:
 *   1. $MP_CONFIG_FILE, when set and not empty (it must exist);
 *   2. in each directory of $NAGIOS_CONFIG_PATH (colon-separated,
 *      deprecated), monitoring-plugins.ini, plugins.ini, nagios-plugins.ini;
 *   3. the first existing one of tw_extraopts_default_paths:
 *      /usr/local/etc/monitoring-plugins/monitoring-plugins.ini
 *      /usr/local/etc/monitoring-plugins.ini
 *      /etc/monitoring-plugins/monitoring-plugins.ini
 *      /etc/monitoring-plugins.ini
 *      and the older names /etc/nagios/plugins.ini,
 *      /usr/local/nagios/etc/plugins.ini, /usr/local/etc/nagios/plugins.ini,
 *      /etc/opt/nagios/plugins.ini, /etc/nagios-plugins.ini,
 *      /usr/local/etc/nagios-plugins.ini, /etc/opt/nagios-plugins.ini.
 * This is the monitoring-plugins 2.x search order.
 *
 * On the command line, "--extra-opts=arg" and a bare "--extra-opts"
 * (default section, default file) both work. "--extra-opts arg" as two
 * words is accepted too, as monitoring-plugins does, when arg does not
 * start with '-' (so "--extra-opts -H host" is a bare --extra-opts followed
 * by -H). The option may be given several times; the files' options are
 * inserted in the order the --extra-opts appear, and the --extra-opts
 * arguments themselves are removed. Scanning stops at "--". Abbreviations
 * ("--extra") are not recognised. Reading from standard input ("@-") is
 * not supported. */
#ifndef TW_EXTRAOPTS_H
#define TW_EXTRAOPTS_H

#include <stddef.h>

/* Largest ini file read: an options file is a few hundred bytes. */
#define TW_EXTRAOPTS_FILE_MAX ((size_t)1 << 20)

/* Where to look for the default file. */
struct tw_extraopts_env {
	const char *mp_config_file;	/* $MP_CONFIG_FILE, or NULL */
	const char *nagios_config_path;	/* $NAGIOS_CONFIG_PATH, or NULL */
	const char *const *paths;	/* NULL-terminated; NULL: the default */
};

/* The standard locations, NULL-terminated. */
extern const char *const tw_extraopts_default_paths[];

/*
 * Expand every --extra-opts of argv[0..argc-1] into *newargv (argc entries
 * and a NULL, like main's) and *newargc. plugin names the default section;
 * NULL means the last path component of argv[0]. env NULL means the
 * process environment and the standard locations.
 *
 * *newargv is one allocation, strings included: release it with
 * tw_extraopts_free() (or free()). It is a copy even when there is no
 * --extra-opts, so the caller can always free it.
 *
 * Returns TW_OK; TW_E_ABSENT (no file, or the section is not in it),
 * TW_E_ACCESS, TW_E_IO, TW_E_TOOBIG (file over TW_EXTRAOPTS_FILE_MAX),
 * TW_E_INVAL (see above) or TW_E_NOMEM, with a one-line message (no
 * newline) in err when errlen > 0. *newargv is NULL on error.
 */
int tw_extraopts_expand(int argc, char *const argv[], const char *plugin,
    const struct tw_extraopts_env *env, int *newargc, char ***newargv,
    char *err, size_t errlen);

void tw_extraopts_free(char **argv);

#endif
