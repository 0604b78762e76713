#include "config.h"

/* libFuzzer target for tw_queue_parse_scheduler (lib/collect/blockqueue.c).
 *
 * The first byte picks the size of the output buffer (0 to 63), which is
 * allocated to exactly that size so that AddressSanitizer sees a write past
 * it; the rest is the text of a scheduler file. It checks that an answer is
 * a scheduler name of the list and that the output is "" on error. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collect/blockqueue.h"
#include "fuzz_check.h"
#include "util/error.h"

/* What the kernel's names are made of: printable, no blanks, brackets or
 * backslash (so each is its own shown form, util/escape.h). */
static int
name_ok(const char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= ' ' || c >= 0x7f || c == '[' || c == ']' || c == '\\')
			return 0;
	}
	return 1;
}

/* Is name a blank-separated word of text, bare or in brackets? */
static int
in_list(const char *text, const char *name)
{
	size_t nlen = strlen(name);
	const char *p;

	for (p = strstr(text, name); p != NULL; p = strstr(p + 1, name)) {
		int open = p > text && p[-1] == '[';
		const char *before = open ? p - 1 : p;
		char after = p[nlen];

		if (before != text && before[-1] != ' ' && before[-1] != '\t')
			continue;
		if (open && after == ']')
			after = p[nlen + 1];
		if (after == '\0' || after == ' ' || after == '\t' || after == '\n')
			return 1;
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char big[256], again[256], bracketed[260];
	size_t outlen;
	char *text, *out;
	int rc, rc_big;

	if (size < 1)
		return 0;
	outlen = data[0] % 64;
	text = fuzz_strndup(data + 1, size - 1);
	/* malloc(0) may return NULL; the function must not touch out then. */
	out = outlen > 0 ? malloc(outlen) : NULL;
	if (outlen > 0 && out == NULL)
		abort();

	rc = tw_queue_parse_scheduler(text, out, outlen);
	rc_big = tw_queue_parse_scheduler(text, big, sizeof(big));
	FUZZ_ASSERT(rc_big == TW_OK || rc_big == TW_E_INVAL || rc_big == TW_E_TOOBIG);
	if (outlen == 0) {
		FUZZ_ASSERT(rc == TW_E_INVAL);
	} else if (rc == TW_OK) {
		/* A small buffer changes nothing but whether the name fits. */
		FUZZ_ASSERT(rc_big == TW_OK && strcmp(out, big) == 0);
		FUZZ_ASSERT(strlen(out) < outlen);
	} else {
		FUZZ_ASSERT(out[0] == '\0');
		FUZZ_ASSERT(rc == TW_E_INVAL || rc == TW_E_TOOBIG);
		if (rc == TW_E_TOOBIG)
			FUZZ_ASSERT(rc_big != TW_OK || strlen(big) >= outlen);
		else
			FUZZ_ASSERT(rc_big == TW_E_INVAL);
	}

	if (rc_big == TW_OK) {
		FUZZ_ASSERT(big[0] != '\0' && name_ok(big));
		FUZZ_ASSERT(in_list(text, big));
		/* The answer, alone and marked, is read back as itself. */
		snprintf(bracketed, sizeof(bracketed), "[%s]\n", big);
		FUZZ_ASSERT(tw_queue_parse_scheduler(bracketed, again, sizeof(again)) == TW_OK);
		FUZZ_ASSERT(strcmp(again, big) == 0);
		FUZZ_ASSERT(tw_queue_parse_scheduler(big, again, sizeof(again)) == TW_OK);
		FUZZ_ASSERT(strcmp(again, big) == 0);
	} else {
		FUZZ_ASSERT(big[0] == '\0');
	}

	free(out);
	free(text);
	return 0;
}
