#include "config.h"

#include "util/readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"

void
tw_buf_init(struct tw_buf *b)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
}

void
tw_buf_free(struct tw_buf *b)
{
	free(b->data);
	tw_buf_init(b);
}

int
tw_buf_reserve(struct tw_buf *b, size_t need)
{
	size_t cap;
	char *p;

	if (need <= b->cap)
		return TW_OK;
	if (need > TW_READ_MAX + 1)
		return TW_E_TOOBIG;
	cap = b->cap ? b->cap : 4096;
	while (cap < need)
		cap *= 2;
	p = realloc(b->data, cap);
	if (p == NULL)
		return TW_E_NOMEM;
	b->data = p;
	b->cap = cap;
	return TW_OK;
}

static int
errno_to_tw(int e)
{
	switch (e) {
	case ENOENT:
	case ENOTDIR:
	case EOPNOTSUPP:	/* PSI built in but booted with psi=0 */
		return TW_E_ABSENT;
	case EACCES:
	case EPERM:
		return TW_E_ACCESS;
	case ENOMEM:
		return TW_E_NOMEM;
	default:
		return TW_E_IO;
	}
}

int
tw_read_file_limit(int dirfd, const char *rel, size_t max, struct tw_buf *b)
{
	int fd, rc = TW_OK;

	b->len = 0;
	if (dirfd < 0 && dirfd != AT_FDCWD)
		return TW_E_ABSENT;
	fd = openat(dirfd, rel, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return errno_to_tw(errno);
	for (;;) {
		ssize_t n;

		/* /proc files report size 0, so read until end of file. */
		rc = tw_buf_reserve(b, b->len + 4096 + 1);
		if (rc != TW_OK)
			break;
		n = read(fd, b->data + b->len, b->cap - b->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = errno_to_tw(errno);
			break;
		}
		if (n == 0)
			break;
		b->len += (size_t)n;
		if (b->len > max) {
			rc = TW_E_TOOBIG;
			break;
		}
	}
	close(fd);
	if (rc != TW_OK) {
		b->len = 0;
		if (b->data)
			b->data[0] = '\0';
		return rc;
	}
	b->data[b->len] = '\0';
	return TW_OK;
}

int
tw_read_file_at(int dirfd, const char *rel, struct tw_buf *b)
{
	return tw_read_file_limit(dirfd, rel, TW_READ_MAX, b);
}

/* Read the small file at rel into tmp (size bytes); *len gets its length.
 * TW_E_TOOBIG when it fills tmp: an attribute is one short line. */
static int
read_small(int dirfd, const char *rel, char *tmp, size_t size, size_t *len)
{
	int fd, rc = TW_OK;

	*len = 0;
	if (dirfd < 0)
		return TW_E_ABSENT;
	fd = openat(dirfd, rel, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return errno_to_tw(errno);
	while (*len < size) {
		ssize_t n = read(fd, tmp + *len, size - *len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = errno_to_tw(errno);
			break;
		}
		if (n == 0)
			break;
		*len += (size_t)n;
	}
	close(fd);
	if (rc == TW_OK && *len == size)
		rc = TW_E_TOOBIG;
	return rc;
}

int
tw_read_value_at(int dirfd, const char *rel, char *out, size_t outlen)
{
	/* Attributes are one short line; anything near 4 KiB is not one. */
	char tmp[4096];
	size_t len;
	int rc;

	if (outlen == 0)
		return TW_E_INVAL;
	out[0] = '\0';
	if ((rc = read_small(dirfd, rel, tmp, sizeof(tmp), &len)) != TW_OK)
		return rc;
	while (len > 0 && (tmp[len - 1] == '\n' || tmp[len - 1] == ' '))
		len--;
	if (len >= outlen)
		return TW_E_TOOBIG;
	memcpy(out, tmp, len);
	out[len] = '\0';
	return TW_OK;
}

int
tw_read_name_at(int dirfd, const char *rel, char *out, size_t outlen, size_t *outlen_read)
{
	char tmp[4096];
	size_t len;
	int rc;

	*outlen_read = 0;
	if (outlen == 0)
		return TW_E_INVAL;
	out[0] = '\0';
	if ((rc = read_small(dirfd, rel, tmp, sizeof(tmp), &len)) != TW_OK)
		return rc;
	if (len > 0 && tmp[len - 1] == '\n')
		len--;
	if (len >= outlen)
		return TW_E_TOOBIG;
	memcpy(out, tmp, len);
	out[len] = '\0';
	*outlen_read = len;
	return TW_OK;
}

int
tw_roots_open(struct tw_roots *r, const char *proc_root, const char *sys_root)
{
	r->proc_fd = open(proc_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->proc_fd < 0) {
		r->sys_fd = -1;
		return errno_to_tw(errno);
	}
	r->sys_fd = -1;
	if (sys_root != NULL)
		r->sys_fd = open(sys_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return TW_OK;
}

void
tw_roots_close(struct tw_roots *r)
{
	if (r->proc_fd >= 0)
		close(r->proc_fd);
	if (r->sys_fd >= 0)
		close(r->sys_fd);
	r->proc_fd = -1;
	r->sys_fd = -1;
}
