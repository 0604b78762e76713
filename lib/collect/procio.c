#include "config.h"

#include "collect/procio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/array.h"
#include "util/error.h"

/* ppid is field 4 and start_time field 22; fields are counted from 3 (the
 * state) after the command name's closing parenthesis. */
#define STAT_PPID_FIELD		4
#define STAT_START_FIELD	22
#define STAT_FIRST_AFTER_COMM	3

void
tw_proc_io_set_init(struct tw_proc_io_set *s)
{
	s->procs = NULL;
	s->count = 0;
	s->cap = 0;
	s->unreadable = 0;
	s->have_uptime = 0;
	s->uptime_ticks = 0;
}

void
tw_proc_io_set_free(struct tw_proc_io_set *s)
{
	free(s->procs);
	tw_proc_io_set_init(s);
}

static int
proc_io_set_grow(struct tw_proc_io_set *s)
{
	void *p;
	int rc = tw_array_grow(s->procs, &s->cap, s->count + 1, sizeof(*s->procs), &p);

	s->procs = p;
	return rc;
}

/* The value of "key: value" if the line has that key; 0 when it does not,
 * -1 when it does but the value is not a number. */
static int
io_line_value(const char *line, size_t len, const char *key, uint64_t *out)
{
	struct tw_tokens it;
	const char *tok;
	size_t tlen;

	tw_tokens_init(&it, line, len);
	if (!tw_tokens_next(&it, &tok, &tlen) || !tw_token_is(tok, tlen, key))
		return 0;
	if (!tw_tokens_next(&it, &tok, &tlen) || tw_parse_u64(tok, tlen, out) != TW_OK ||
	    tw_tokens_next(&it, &tok, &tlen))
		return -1;
	return 1;
}

int
tw_procio_parse_io(const char *text, size_t len, uint64_t *rchar, uint64_t *read_bytes)
{
	struct tw_lines lines;
	const char *line;
	size_t llen;
	int complete, have_rchar = 0, have_read = 0, r;

	tw_lines_init(&lines, text, len);
	while (tw_lines_next(&lines, &line, &llen, &complete)) {
		/* A last line without '\n' may hold a cut number. */
		if ((r = io_line_value(line, llen, "rchar:", rchar)) != 0) {
			if (r < 0 || !complete || have_rchar)
				return TW_E_INVAL;
			have_rchar = 1;
		} else if ((r = io_line_value(line, llen, "read_bytes:", read_bytes)) != 0) {
			if (r < 0 || !complete || have_read)
				return TW_E_INVAL;
			have_read = 1;
		}
	}
	return have_rchar && have_read ? TW_OK : TW_E_INVAL;
}

int
tw_procio_parse_stat(const char *text, size_t len, int32_t *ppid, uint64_t *start_time)
{
	struct tw_tokens it;
	const char *paren = NULL, *end, *nl, *tok = NULL;
	size_t i, tlen = 0, field;
	uint64_t pp = 0;

	/* The command name may hold ')' and even '\n', so search from the end:
	 * nothing after it can contain one. */
	for (i = len; i > 0; i--) {
		if (text[i - 1] == ')') {
			paren = text + i - 1;
			break;
		}
	}
	if (paren == NULL)
		return TW_E_INVAL;
	end = text + len;
	nl = memchr(paren, '\n', (size_t)(end - paren));
	tw_tokens_init(&it, paren + 1, (size_t)((nl != NULL ? nl : end) - paren - 1));
	for (field = STAT_FIRST_AFTER_COMM; field <= STAT_START_FIELD; field++) {
		if (!tw_tokens_next(&it, &tok, &tlen))
			return TW_E_INVAL;
		if (field == STAT_PPID_FIELD &&
		    (tw_parse_u64(tok, tlen, &pp) != TW_OK || pp > INT32_MAX))
			return TW_E_INVAL;
	}
	/* The field must be followed by something: a number that ends the
	 * buffer without a newline may have been cut short. */
	if (tok + tlen == end)
		return TW_E_INVAL;
	if (tw_parse_u64(tok, tlen, start_time) != TW_OK)
		return TW_E_INVAL;
	*ppid = (int32_t)pp;
	return TW_OK;
}

int
tw_procio_parse_uptime(const char *text, size_t len, uint64_t hz, uint64_t *ticks)
{
	struct tw_tokens it;
	const char *tok;
	size_t tlen;
	uint64_t centis;

	/* Both fields and the newline: a cut text may hold a cut number. */
	if (hz == 0 || len == 0 || text[len - 1] != '\n')
		return TW_E_INVAL;
	tw_tokens_init(&it, text, len - 1);
	if (!tw_tokens_next(&it, &tok, &tlen) || tw_parse_hundredths(tok, tlen, &centis) != TW_OK ||
	    !tw_tokens_next(&it, &tok, &tlen) || tw_tokens_next(&it, &tok, &tlen))
		return TW_E_INVAL;
	if (centis > UINT64_MAX / hz)
		return TW_E_INVAL;
	/* The kernel prints whole hundredths, and a start time is the boot
	 * time at the fork rounded down to a tick: ticks rounded down too,
	 * so that a process born after the read never starts before it. */
	*ticks = centis * hz / 100;
	return TW_OK;
}

/* When the scan begins, in the clock of the start times. An absent file
 * leaves it unknown; a malformed one is counted and left unknown too. */
static int
read_uptime(int proc_fd, struct tw_buf *scratch, struct tw_proc_io_set *out,
    struct tw_parse_stats *ps)
{
	long hz = sysconf(_SC_CLK_TCK);
	int rc = tw_read_file_at(proc_fd, "uptime", scratch);

	if (rc == TW_E_NOMEM)
		return rc;
	if (rc != TW_OK || hz <= 0)
		return TW_OK;
	ps->lines++;
	if (tw_procio_parse_uptime(scratch->data, scratch->len, (uint64_t)hz,
	    &out->uptime_ticks) != TW_OK) {
		ps->malformed++;
		return TW_OK;
	}
	out->have_uptime = 1;
	return TW_OK;
}

/* The pid of a /proc entry, or -1 when the entry is not a process. */
static int32_t
entry_pid(const char *name)
{
	int32_t pid = 0;
	size_t i;

	if (name[0] == '\0' || name[0] == '0')
		return -1;
	for (i = 0; name[i] != '\0'; i++) {
		if (name[i] < '0' || name[i] > '9')
			return -1;
		if (pid > (INT32_MAX - (name[i] - '0')) / 10)
			return -1;
		pid = pid * 10 + (name[i] - '0');
	}
	return pid;
}

static int
proc_io_cmp(const void *a, const void *b)
{
	const struct tw_proc_io *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* What to do with a process after a failed read. */
enum proc_fate {
	PROC_GONE,		/* exited meanwhile: skip silently */
	PROC_UNREADABLE,	/* count in unreadable */
	PROC_MALFORMED,		/* count as malformed */
	PROC_FATAL		/* stop: out of memory */
};

static enum proc_fate
proc_read_fate(int proc_fd, int32_t pid, int rc)
{
	struct stat st;
	char pidname[16];

	switch (rc) {
	case TW_E_ABSENT:
		return PROC_GONE;
	case TW_E_ACCESS:
		return PROC_UNREADABLE;
	case TW_E_NOMEM:
		return PROC_FATAL;
	case TW_E_TOOBIG:
		return PROC_MALFORMED;
	default:
		/* A process that exits between open and read fails the read
		 * with ESRCH, which reads as TW_E_IO: it is gone if its
		 * directory is. One still there that cannot be read is
		 * counted as unreadable. */
		snprintf(pidname, sizeof(pidname), "%" PRId32, pid);
		if (fstatat(proc_fd, pidname, &st, 0) != 0 && errno == ENOENT)
			return PROC_GONE;
		return PROC_UNREADABLE;
	}
}

/* Read process p->pid into *p. TW_OK, or a fate for the caller. */
static int
proc_read_one(int proc_fd, struct tw_buf *scratch, struct tw_proc_io *p,
    enum proc_fate *fate)
{
	char rel[32];
	int rc;

	/* entry_pid() took no leading zeros, so this is the entry's name. */
	snprintf(rel, sizeof(rel), "%" PRId32 "/stat", p->pid);
	if ((rc = tw_read_file_at(proc_fd, rel, scratch)) != TW_OK) {
		*fate = proc_read_fate(proc_fd, p->pid, rc);
		return rc;
	}
	if (tw_procio_parse_stat(scratch->data, scratch->len, &p->ppid, &p->start_time) != TW_OK) {
		*fate = PROC_MALFORMED;
		return TW_E_INVAL;
	}
	snprintf(rel, sizeof(rel), "%" PRId32 "/io", p->pid);
	if ((rc = tw_read_file_at(proc_fd, rel, scratch)) != TW_OK) {
		*fate = proc_read_fate(proc_fd, p->pid, rc);
		return rc;
	}
	if (tw_procio_parse_io(scratch->data, scratch->len, &p->rchar, &p->read_bytes) != TW_OK) {
		*fate = PROC_MALFORMED;
		return TW_E_INVAL;
	}
	return TW_OK;
}

int
tw_procio_read_all(int proc_fd, int32_t exclude_pid, struct tw_buf *scratch,
    struct tw_proc_io_set *out, struct tw_parse_stats *ps)
{
	struct dirent *de;
	DIR *dir;
	int dfd, rc = TW_OK, sorted = 1;

	out->count = 0;
	out->unreadable = 0;
	out->have_uptime = 0;
	out->uptime_ticks = 0;
	if (proc_fd < 0)
		return TW_E_ABSENT;
	if ((rc = read_uptime(proc_fd, scratch, out, ps)) != TW_OK)
		return rc;
	/* A directory stream of our own, so proc_fd's offset is untouched. */
	dfd = openat(proc_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return errno == EACCES || errno == EPERM ? TW_E_ACCESS : TW_E_IO;
	if ((dir = fdopendir(dfd)) == NULL) {
		close(dfd);
		return TW_E_NOMEM;
	}
	while ((de = readdir(dir)) != NULL) {
		struct tw_proc_io p;
		enum proc_fate fate = PROC_GONE;
		int32_t pid = entry_pid(de->d_name);

		if (pid < 0 || pid == exclude_pid)
			continue;
		p.pid = pid;
		if (proc_read_one(proc_fd, scratch, &p, &fate) != TW_OK) {
			if (fate == PROC_FATAL) {
				rc = TW_E_NOMEM;
				break;
			}
			if (fate == PROC_UNREADABLE) {
				out->unreadable++;
			} else if (fate == PROC_MALFORMED) {
				/* A process counts as one "line" of the sample. */
				ps->lines++;
				ps->malformed++;
			}
			continue;
		}
		ps->lines++;
		if ((rc = proc_io_set_grow(out)) != TW_OK)
			break;
		if (out->count > 0 && out->procs[out->count - 1].pid > pid)
			sorted = 0;
		out->procs[out->count++] = p;
	}
	closedir(dir);
	/* /proc lists pids in order, so this is rare. */
	if (!sorted)
		qsort(out->procs, out->count, sizeof(out->procs[0]), proc_io_cmp);
	return rc;
}
