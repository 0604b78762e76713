/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "advice/evidence.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/escape.h"
#include "util/printf.h"

/* A UDP socket that drops: whether net.core.rmem_max is what holds its
 * buffer down. SO_RCVBUF may ask for at most rmem_max (the kernel then
 * doubles it for its own overhead); a socket that asks for nothing gets
 * rmem_default. So a buffer already at or above rmem_max can grow only
 * if rmem_max does, and the application must then ask for more; a buffer
 * below it can grow by the application's SO_RCVBUF alone, and no sysctl
 * needs to change. See doc/ADVICE-REFERENCE.md. */

/* Evidence that does not fit is cut: the figures come first. */
static void TW_PRINTF(3, 4)
text(char *out, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out, len, fmt, ap);
	va_end(ap);
}

/* 1204 -> "1,204": drop counts are read by people. */
static void
grouped(uint64_t v, char *out, size_t len)
{
	char digits[32];
	size_t nd, i, o = 0;

	nd = (size_t)snprintf(digits, sizeof(digits), "%" PRIu64, v);
	for (i = 0; i < nd && o + 2 < len; i++) {
		if (i > 0 && (nd - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
}

/* "syslogd (pid 412)": the socket itself is the finding's subject, said
 * beside the evidence wherever it is shown, so it is not said again: the
 * evidence must fit the MIB's 255 characters with its threshold note
 * (tests/check_evidence_socket.c holds every line to it). A comm is 15
 * bytes, but its shown form up to 60 (util/escape.h): what does not fit is
 * the name's tail, cut at a whole unit and marked "...", never the pid,
 * which is what a person acts on. */
static void
who(const struct tw_socket_figures *f, char *out, size_t len)
{
	char pid[32];
	size_t room;

	if (f->command == NULL) {
		snprintf(out, len, "a process not found");
		return;
	}
	snprintf(pid, sizeof(pid), " (pid %" PRId32 ")", f->pid);
	room = len > strlen(pid) ? len - strlen(pid) : 1;
	if (tw_escape_copy(out, room, f->command) == TW_E_TOOBIG && room > 4) {
		(void)tw_escape_copy(out, room - 3, f->command);
		strcat(out, "...");
	}
	if (strlen(out) + strlen(pid) < len)
		strcat(out, pid);
}

int
tw_evidence_short_of_cpu(double owner_cpu, double owner_cpu_wait, double full_share)
{
	return full_share >= TW_SHORT_CPU_FULL && owner_cpu >= 0 && owner_cpu_wait >= 0 &&
	    owner_cpu + owner_cpu_wait >= TW_SHORT_CPU_BUSY;
}

int
tw_evidence_cannot_keep_up(int have_full, double full_share, int have_cpu, double owner_cpu,
    double owner_cpu_wait)
{
	if (!have_full || full_share < TW_SHORT_CPU_FULL)
		return 0;
	return !have_cpu || tw_evidence_short_of_cpu(owner_cpu, owner_cpu_wait, full_share);
}

/* A share of a CPU as a whole percent; a process of many threads may show
 * more than 100, but no more than 9999 is printed, so that the evidence
 * fits (a larger share says no more). */
static void
percent(double v, char *out, size_t len)
{
	snprintf(out, len, "%.0f", v < 9999.0 ? v : 9999.0);
}

int
tw_evidence_socket(const struct tw_socket_figures *f, struct tw_verdict *out)
{
	char name[64], drops[32], buf[32], mx[32];
	struct tw_shown *fd;

	memset(out, 0, sizeof(*out));
	if (f == NULL || f->proto == NULL || f->address == NULL)
		return TW_E_INVAL;
	/* A "no tunable" finding keeps the symptom looked for, for its id. */
	out->no_tunable_sym = TW_SYM_SOCKET_RCVBUF;
	who(f, name, sizeof(name));
	grouped(f->recent, drops, sizeof(drops));
	snprintf(buf, sizeof(buf), "%" PRIu64, f->rcvbuf);
	snprintf(mx, sizeof(mx), "%" PRIu64, f->rmem_max);
	/* The lab found such drops counted nowhere but the socket on Linux
	 * 6.18: the buffer is not what ran out, and a larger one would hold
	 * more of the memory that did. */
	if (f->udp_mem_failures > 0) {
		text(out->no_tunable, sizeof(out->no_tunable),
		    "%s dropped %s datagrams in the last %u s while UDP hit its memory limit: "
		    "net.ipv4.udp_mem bounds them (see udp memory), not its buffer", name, drops,
		    f->window_s);
		return TW_OK;
	}
	/* The lab's neg-udp-cpu: a receiver that cannot keep up at any
	 * buffer size delivered as much at 16 times the buffer; the excess
	 * is dropped, later with a bigger one. Its owner must be known: the
	 * figures are its. */
	if (f->have_full && f->have_cpu && f->command != NULL &&
	    tw_evidence_short_of_cpu(f->owner_cpu, f->owner_cpu_wait, f->full_share)) {
		char ran[16], waited[16];

		percent(f->owner_cpu, ran, sizeof(ran));
		percent(f->owner_cpu_wait, waited, sizeof(waited));
		text(out->no_tunable, sizeof(out->no_tunable),
		    "%s is short of CPU: ran %s%% and waited %s%% of a CPU as it dropped in the last "
		    "%u s, queue full: a bigger buffer only delays drops", name, ran, waited,
		    f->window_s);
		out->no_apply = "none: the receiver's CPU (a faster or less loaded CPU, more "
		    "threads or processes reading, less work a datagram), which no sysctl gives";
		return TW_OK;
	}
	/* Its queue full as it dropped, its owner's CPU not known yet (the
	 * owner search and two intervals of its CPU take samples, more on a
	 * busy host): a steady excess, which a buffer only delays whatever
	 * the cause. Said so rather than a knob the next samples may show
	 * useless. */
	if (tw_evidence_cannot_keep_up(f->have_full, f->full_share, f->have_cpu && f->command != NULL,
	    f->owner_cpu, f->owner_cpu_wait)) {
		text(out->no_tunable, sizeof(out->no_tunable),
		    "%s dropped %s datagrams in the last %u s with its queue full: a bigger buffer "
		    "only delays them (its CPU not known)", name, drops, f->window_s);
		out->no_apply = "none: a receiver that cannot keep up, which no sysctl helps";
		return TW_OK;
	}
	if (!f->have_rcvbuf || !f->have_rmem_max) {
		text(out->no_tunable, sizeof(out->no_tunable),
		    "%s dropped %s datagrams in the last %u s, buffer unknown (compare ss -u -a "
		    "-m's rb with net.core.rmem_max%s%s)", name, drops, f->window_s,
		    f->have_rmem_max ? ", " : "", f->have_rmem_max ? mx : "");
		return TW_OK;
	}
	/* Equal to rmem_default is what a socket gets without SO_RCVBUF (a
	 * request for half of it gives the same, rarely): most applications
	 * set none, and grow only with rmem_default, which a socket takes
	 * when it is made. The lab found a "no tunable" here closed no
	 * ticket: the knob that reaches such a socket is rmem_default. */
	if (f->rcvbuf < f->rmem_max && f->have_rmem_default && f->rcvbuf == f->rmem_default) {
		fd = &out->found[out->nfound++];
		fd->sym = TW_SYM_SOCKET_RCVBUF_DEFAULT;
		text(fd->evidence, sizeof(fd->evidence),
		    "%s dropped %s datagrams in the last %u s, buffer rmem_default %s, given to a "
		    "socket that sets no SO_RCVBUF when it is made: restart it", name, drops,
		    f->window_s, buf);
		return TW_OK;
	}
	/* The application asked for this buffer (SO_RCVBUF) and may ask for
	 * more up to rmem_max: its own setting is the knob, which no sysctl
	 * changes and tunewatch cannot apply. A host-wide sysctl here would
	 * reach every other socket and not this one. */
	if (f->rcvbuf < f->rmem_max) {
		text(out->no_tunable, sizeof(out->no_tunable),
		    "%s dropped %s datagrams in the last %u s, buffer %s bytes, under "
		    "net.core.rmem_max %s: raise the app's own SO_RCVBUF, no sysctl sets it", name,
		    drops, f->window_s, buf, mx);
		out->no_apply = "none: the application's own SO_RCVBUF (setsockopt, in its code or "
		    "configuration), which no sysctl changes and tunewatch cannot apply";
		return TW_OK;
	}
	fd = &out->found[out->nfound++];
	fd->sym = TW_SYM_SOCKET_RCVBUF;
	text(fd->evidence, sizeof(fd->evidence),
	    "%s dropped %s datagrams in the last %u s, buffer %s bytes, at net.core.rmem_max %s: "
	    "raise rmem_max and its SO_RCVBUF", name, drops, f->window_s, buf, mx);
	return TW_OK;
}

#define USER_KNOB "none: the user's own SO_RCVBUF (setsockopt, in their program); a " \
	"host-wide sysctl would serve that user alone, so none is proposed"

int
tw_evidence_user_sockets(const struct tw_user_sockets_figures *f, struct tw_verdict *out)
{
	char socks[32], drops[32], worst[32], name[64];
	size_t used;

	memset(out, 0, sizeof(*out));
	if (f == NULL)
		return TW_E_INVAL;
	out->no_tunable_sym = TW_SYM_SOCKET_RCVBUF;
	out->no_apply = USER_KNOB;
	grouped(f->sockets, socks, sizeof(socks));
	grouped(f->recent, drops, sizeof(drops));
	text(out->no_tunable, sizeof(out->no_tunable),
	    "user %" PRIu32 "'s %s socket%s dropped %s datagrams in the last %u s, and only "
	    "that user's: a host-wide net.core.rmem_max would serve that user alone; their own "
	    "SO_RCVBUF is the knob", f->uid, socks, f->sockets == 1 ? "" : "s", drops, f->window_s);
	/* The worst socket last, where a cut takes only it. */
	used = strlen(out->no_tunable);
	if (f->worst != NULL && used < sizeof(out->no_tunable)) {
		struct tw_socket_figures who_f = { .command = f->command, .pid = f->pid };

		who(&who_f, name, sizeof(name));
		grouped(f->worst_recent, worst, sizeof(worst));
		text(out->no_tunable + used, sizeof(out->no_tunable) - used, "; worst %s, %s, %s",
		    f->worst, name, worst);
	}
	return TW_OK;
}

int
tw_evidence_listen_user(uint64_t failures, unsigned window_s, uint32_t uid,
    struct tw_verdict *out)
{
	char n[32];

	memset(out, 0, sizeof(*out));
	out->no_tunable_sym = TW_SYM_LISTEN_OVERFLOW;
	grouped(failures, n, sizeof(n));
	text(out->no_tunable, sizeof(out->no_tunable),
	    "%s connections were dropped on full accept queues in the last %u s, and every "
	    "listener seen full was user %" PRIu32 "'s: a host-wide net.core.somaxconn would "
	    "serve that user alone; their own listen() backlog is the knob", n, window_s, uid);
	out->no_apply = "none: the user's own listen() backlog (in their program), which "
	    "somaxconn only caps; a host-wide sysctl would serve that user alone, so none is "
	    "proposed";
	return TW_OK;
}

int
tw_evidence_udp_rcvbuf(const struct tw_udp_rcvbuf_figures *f, struct tw_verdict *out)
{
	char n[32];

	memset(out, 0, sizeof(*out));
	if (f == NULL)
		return TW_E_INVAL;
	out->no_tunable_sym = TW_SYM_UDP_RCVBUF;
	grouped(f->failures, n, sizeof(n));
	/* Only users' sockets: no knob the whole host shares for them. */
	if (f->sockets == 0 && f->user_sockets > 0) {
		char us[32];

		grouped(f->user_sockets, us, sizeof(us));
		if (f->users == 1)
			text(out->no_tunable, sizeof(out->no_tunable),
			    "%s datagrams were dropped on full receive buffers in the last %u s, all "
			    "on the %s socket%s of user %" PRIu32 ": a host-wide net.core.rmem_max "
			    "would serve that user alone (see sockets of user %" PRIu32 ")", n,
			    f->window_s, us, f->user_sockets == 1 ? "" : "s", f->user_uid,
			    f->user_uid);
		else
			text(out->no_tunable, sizeof(out->no_tunable),
			    "%s datagrams were dropped on full receive buffers in the last %u s, all "
			    "on the %s sockets of %zu users: a host-wide net.core.rmem_max would serve "
			    "those users alone (see each user's sockets)", n, f->window_s, us,
			    f->users);
		out->no_apply = USER_KNOB;
		return TW_OK;
	}
	/* Drops counted before the change by sockets made again since:
	 * another raise, or rmem_max for sockets that were at rmem_default,
	 * would answer the old value (the lab's net-udp-default, issue 32). */
	if (f->sockets == 0 && f->user_sockets == 0 && f->changed != NULL) {
		text(out->no_tunable, sizeof(out->no_tunable),
		    "%s datagrams were dropped on full receive buffers in the last %u s, by no "
		    "socket open now: those closed since %s changed; its change history says "
		    "if that helped", n, f->window_s, f->changed);
		out->no_apply = "none yet: the drops are older than the change; see its record "
		    "in twChangeTable";
		return TW_OK;
	}
	if (f->sockets > 0 && f->cannot_keep_up == f->sockets) {
		text(out->no_tunable, sizeof(out->no_tunable),
		    "%s datagrams were dropped on full receive buffers in the last %u s, by %zu "
		    "socket%s whose receiver cannot keep up: a bigger buffer only delays the drops "
		    "(see each socket's line)", n, f->window_s, f->sockets,
		    f->sockets == 1 ? "" : "s");
		out->no_apply = "none: the receivers' CPU or code, which no sysctl changes";
		return TW_OK;
	}
	if (f->sockets > 0 && f->at_max == 0 && f->unknown == 0) {
		text(out->no_tunable, sizeof(out->no_tunable),
		    "%s datagrams were dropped on full receive buffers in the last %u s, by %zu "
		    "socket%s whose buffer is below net.core.rmem_max: raise the application's "
		    "SO_RCVBUF (see each socket's line)", n, f->window_s, f->sockets,
		    f->sockets == 1 ? "" : "s");
		return TW_OK;
	}
	out->found[0].sym = TW_SYM_UDP_RCVBUF;
	text(out->found[0].evidence, sizeof(out->found[0].evidence),
	    "%s datagrams were dropped on full receive buffers in the last %u s", n, f->window_s);
	out->nfound = 1;
	return TW_OK;
}
