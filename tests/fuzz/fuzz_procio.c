/* SPDX-License-Identifier: ISC */
#include "config.h"

/* libFuzzer target for tw_procio_parse_io and tw_procio_parse_stat
 * (lib/collect/procio.c); every input goes to both, as /proc/[pid]/io and as
 * /proc/[pid]/stat.
 *
 * It checks that an accepted io text names both keys and is still
 * accepted, with the same values, once a final newline is added; and that
 * a stat text is read after its last ')', so a command name put in front
 * of it changes nothing when it has one. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "collect/procio.h"
#include "util/error.h"

#define POISON UINT64_C(0x5a5a5a5a5a5a5a5a)

static void
check_io(const char *text, size_t size)
{
	uint64_t rchar = POISON, read_bytes = POISON, r2, b2;
	char *more;
	int rc;

	rc = tw_procio_parse_io(text, size, &rchar, &read_bytes);
	FUZZ_ASSERT(rc == TW_OK || rc == TW_E_INVAL);
	if (rc != TW_OK)
		return;
	FUZZ_ASSERT(memmem(text, size, "rchar:", 6) != NULL);
	FUZZ_ASSERT(memmem(text, size, "read_bytes:", 11) != NULL);

	more = malloc(size + 1);
	if (more == NULL)
		abort();
	memcpy(more, text, size);
	more[size] = '\n';
	FUZZ_ASSERT(tw_procio_parse_io(more, size + 1, &r2, &b2) == TW_OK);
	FUZZ_ASSERT(r2 == rchar && b2 == read_bytes);
	free(more);
}

static void
check_stat(const char *text, size_t size)
{
	static const char prefix[] = "1 (a) b)) ";
	uint64_t start = POISON, s2 = POISON;
	int32_t pp = -1, pp2 = -1;
	char *more;
	int rc, rc2;

	rc = tw_procio_parse_stat(text, size, &pp, &start);
	FUZZ_ASSERT(rc == TW_OK || rc == TW_E_INVAL);
	if (rc == TW_OK)
		FUZZ_ASSERT(memchr(text, ')', size) != NULL);
	else
		FUZZ_ASSERT(start == POISON && pp == -1);
	if (memchr(text, ')', size) == NULL)
		return;

	more = malloc(sizeof(prefix) - 1 + size);
	if (more == NULL)
		abort();
	memcpy(more, prefix, sizeof(prefix) - 1);
	memcpy(more + sizeof(prefix) - 1, text, size);
	rc2 = tw_procio_parse_stat(more, sizeof(prefix) - 1 + size, &pp2, &s2);
	FUZZ_ASSERT(rc2 == rc);
	if (rc == TW_OK)
		FUZZ_ASSERT(s2 == start && pp2 == pp);
	free(more);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_io((const char *)data, size);
	check_stat((const char *)data, size);
	return 0;
}
