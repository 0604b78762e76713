/* SPDX-License-Identifier: ISC */
/* Tuning tickets: a finding's stable id, and the lines that carry its
 * suggestion out: the command that applies it now and the line that makes
 * it persistent.
 *
 * The id is the key a ticket system deduplicates on (host!service!id), so
 * it must not change while the symptom, its subject and the tunable stay
 * the same: not across runs, versions, agents or plugins. It is
 *
 *   "tw-" + the first 12 hex digits of FNV-1a 64 over
 *           token(symptom) NUL subject NUL tunable
 *
 * with a NULL subject or tunable read as "". The host is not part of it:
 * the ticket key adds it. A finding without a tunable ("no tunable: ...")
 * gets an id with tunable "": it is still a ticket, for a person.
 *
 * Subjects: a disk is its twDiskStableId when it has one, else its kernel
 * name (tw_ticket_subject_disk); a pool is its pool name (twPoolName, "tcp
 * memory"), but a per-CPU class is one subject ("softnet backlog"): its
 * tunable is host-wide, and cpu1 today and cpu3 tomorrow are one ticket
 * (tw_ticket_subject_pool); the buffer cache and memory are "cache"; a
 * per-device tunable suggested for the cache (read_ahead_kb) has the disk.
 * A subject is the whole identity of what it names, so that two things
 * never share an id: a cgroup is its directory as the host mounts it,
 * its path below the memory hierarchy's root under /sys/fs/cgroup/memory
 * on cgroup v1 or /sys/fs/cgroup on v2 (tw_ticket_subject_cgroup), never
 * its unit's name, which a delegated user can give any cgroup of theirs;
 * a UDP socket is its protocol, local address, port and inode ("udp
 * 0.0.0.0:514 inode 12345"), so two sockets bound to one port
 * (SO_REUSEPORT) are two findings, and a socket opened again is a new
 * one. (A cgroup's subject was once its unit's name, or its path, and a
 * socket's had no inode: their ids changed then, README says when;
 * disks', pools' and the cache's never did.)
 *
 * A verdict with no tunable ("no tunable: the device itself is slow") is
 * a finding too, with the symptom that was looked for
 * (tw_verdict.no_tunable_sym) and tunable "".
 *
 * Apply and persist lines may be pasted into a root shell, and their
 * tunable, device and value can come from an SNMP agent, so every piece
 * is checked against a small safe set (letters, digits, "._:+-", single
 * spaces between a vector's fields; a value never starts with "-" unless
 * a digit follows, so echo cannot take it for an option) and refused
 * with TW_E_INVAL otherwise: never an escaped or partial command.
 *
 * Per system:
 *   Linux    sysctl: "sysctl -w vm.swappiness=60", vectors quoted
 *            ("sysctl -w net.ipv4.tcp_rmem='4096 131072 6291456'");
 *            persist "/etc/sysctl.d/90-tunewatch.conf: vm.swappiness = 60".
 *            A queue attribute ("queue/nr_requests", device required):
 *            "echo 64 > /sys/block/sda/queue/nr_requests"; persist a udev
 *            rule line for /etc/udev/rules.d/60-tunewatch.rules matched by
 *            kernel name (tw_ticket_persist_disk matches the stable id),
 *            ACTION!="remove" so that no line holds a '|' (which plugin
 *            output turns into '/').
 *   FreeBSD  "sysctl kern.ipc.nmbclusters=262144", persist in
 *            /etc/sysctl.conf. A loader tunable (TW_ADV_BOOT in the advice
 *            table) has nothing to apply now: apply returns TW_E_ABSENT and
 *            persist names /boot/loader.conf.
 *   SVR4     every tunable takes effect only after a kernel relink and a
 *            reboot, so apply returns TW_E_ABSENT (nothing changes the
 *            running kernel) and persist is the idtune -f and idbuild -B
 *            command line with a comment saying a reboot is needed.
 *
 * All functions write a NUL-terminated line without newline and return
 * TW_OK; on any error the buffer is "" (when len > 0) and the code is
 * TW_E_ABSENT (nothing to apply: no value proposed, or nothing takes
 * effect now), TW_E_INVAL (bad or unsafe input) or TW_E_TOOBIG (buffer
 * too small).
 */
#ifndef TW_TICKET_H
#define TW_TICKET_H

#include <stddef.h>
#include <stdint.h>

#include "advice/advice.h"

struct tw_view_disk;
struct tw_pool_class;

/* "tw-" + 12 lower-case hex digits + NUL. */
#define TW_TICKET_ID_LEN 16

/* Enough for any apply or persist line built from safe inputs. */
#define TW_TICKET_LINE_LEN 512

/* The subject that is neither a disk nor a pool. */
#define TW_TICKET_SUBJECT_CACHE "cache"

/* A stable, lower-case token per symptom ("softnet-drops"); NULL out of
 * range. Part of every ticket id: never rename one. */
const char *tw_symptom_name(enum tw_symptom sym);

/* The finding id; a symptom out of range hashes as token "". */
void tw_ticket_id(char out[TW_TICKET_ID_LEN], enum tw_symptom sym, const char *subject,
    const char *tunable);

/* d->stable_id when non-empty, else d->name; "" for NULL. */
const char *tw_ticket_subject_disk(const struct tw_view_disk *d);

/* The subject of a finding on tunable (NULL or "" for none): the disk's
 * (tw_ticket_subject_disk) for a queue tunable or when subject is NULL,
 * else subject ("cache", a pool's); "" when neither is given. The checks
 * and tunewatchd both ask this, so that they give the same ids. */
const char *tw_ticket_subject(const char *subject, const struct tw_view_disk *disk,
    const char *tunable);

/* The graph label (advice/poolwords.h) for a per-CPU class, else c->name; "" for NULL. */
const char *tw_ticket_subject_pool(const struct tw_pool_class *c);

/* The sysfs file of a disk's queue attribute: for device "sda" and
 * tunable "queue/nr_requests", "/sys/block/sda/queue/nr_requests" in buf
 * (cut to len). 0, and buf untouched, when there is no device or tunable
 * is no queue attribute (a sysctl): the agent's findings, the checks' tune
 * lines and the apply lines name a disk's file this one way. */
int tw_ticket_queue_path(char *buf, size_t len, const char *device, const char *tunable);

/* The command that applies value to tunable now (device: the kernel name,
 * for queue attributes; ignored otherwise). */
int tw_ticket_apply(char *buf, size_t len, enum tw_os os, const char *tunable,
    const char *device, const char *value);

/* The line that makes it persistent: "<file>: <line>", or SVR4's command. */
int tw_ticket_persist(char *buf, size_t len, enum tw_os os, const char *tunable,
    const char *device, const char *value);

/* As tw_ticket_persist, but a queue attribute's udev rule matches the
 * disk by what survives a reboot: ENV{DM_UUID} for a device-mapper id
 * ("LVM-...", "mpath-..."), ATTRS{wwid} for any other stable id, and
 * KERNEL== only when the disk has none (or the id is not safe). */
int tw_ticket_persist_disk(char *buf, size_t len, enum tw_os os, const char *tunable,
    const struct tw_view_disk *d, const char *value);

/* A systemd unit's property (a service's own memory limit,
 * advice/advice_cgroup.h). The unit name must be systemd's: letters, digits, ":_.@-",
 * a type suffix, and a backslash only in systemd's "\xNN" escapes; never a
 * space, quote, slash or "..". apply is
 *   "systemctl set-property --runtime nginx.service MemoryHigh=128M"
 * (the name in single quotes when it holds an escape); persist the
 * drop-in and its section and line, which go on two lines of that file:
 *   "/etc/systemd/system/nginx.service.d/90-tunewatch.conf: [Service]
 *   MemoryHigh=128M"
 * and TW_E_ABSENT for a unit with no file to add to (a scope). */
int tw_ticket_apply_unit(char *buf, size_t len, const char *unit, const char *property,
    const char *value);
int tw_ticket_persist_unit(char *buf, size_t len, const char *unit, const char *property,
    const char *value);

/* The same for a unit of user uid's manager (collect/cgroupowner.h), on
 * cgroup v2, where user@.service delegates the memory controller to it:
 *   "systemctl --user -M 1000@ set-property --runtime web.service
 *   MemoryHigh=128M"
 * (systemctl(1) --machine: "1000@" is user 1000 on the local host, which
 * systemd 248 and later reach through a PAM session of that user); and
 * persist that user's own drop-in, in their home, which the agent does
 * not know:
 *   "~/.config/systemd/user/web.service.d/90-tunewatch.conf (in the home
 *   of user 1000): [Service] MemoryHigh=128M"
 * (TW_E_ABSENT for a scope). On cgroup v1 systemd gives a user's manager
 * no controller but its own name=systemd hierarchy, so the caller gives
 * no line there (lib/finding/ticket_cgroup.c). */
int tw_ticket_apply_user_unit(char *buf, size_t len, uint32_t uid, const char *unit,
    const char *property, const char *value);
int tw_ticket_persist_user_unit(char *buf, size_t len, uint32_t uid, const char *unit,
    const char *property, const char *value);

/* A cgroup's finding's subject: its directory, "/sys/fs/cgroup/memory" +
 * path on cgroup v1 (version 1), "/sys/fs/cgroup" + path on v2; path is
 * below the hierarchy's root and starts with '/' (TW_E_INVAL otherwise). */
#define TW_TICKET_SUBJECT_CGROUP_LEN 288
int tw_ticket_subject_cgroup(char *buf, size_t len, int version, const char *path);

/* A plain cgroup's limit, written now:
 *   "echo 134217728 >
 *   /sys/fs/cgroup/memory/twhostile/system.slice/memory.limit_in_bytes"
 * file is the limit file the figures came from (memory.limit_in_bytes on
 * v1, memory.high or memory.max on v2), bytes the value (TW_E_ABSENT when
 * 0). The path must pass tw_ticket_safe_cgroup_path (TW_E_INVAL). No
 * persist line exists: the limit lives as long as the cgroup, and
 * whoever made the cgroup sets it again when they make it. */
int tw_ticket_apply_cgroup_file(char *buf, size_t len, int version, const char *path,
    const char *file, uint64_t bytes);

/* 1 when every byte of path is a letter, digit or one of "/._-:@+", it
 * starts with '/', and no component is empty, "." or "..": a path that
 * may follow "echo N >" in a root shell as it is. */
int tw_ticket_safe_cgroup_path(const char *path);

/* 1 when unit is a name tw_ticket_apply_unit accepts. */
int tw_ticket_safe_unit(const char *unit);

/* The drop-in section of unit's type ("Service" for x.service); NULL for
 * a scope or a type without resource control. */
const char *tw_ticket_unit_section(const char *unit);

#endif
