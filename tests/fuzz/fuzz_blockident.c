#include "config.h"

/* libFuzzer target for tw_ident_parse_value and tw_ident_classify
 * (lib/collect/blockident.c): dm and md names, wwid, NGUID and EUI files.
 *
 * The first byte picks the size of the output buffer (0 to 127), allocated
 * to exactly that size so that AddressSanitizer sees a write past it; the
 * rest is the file's text, in libFuzzer's own buffer (no terminator). It
 * checks that an answer is shown (util/escape.h) without blanks around
 * it, that it reads back (tw_unescape) to a piece of the text, and that
 * out is "" on error.
 * The same text is then classified as a device name. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collect/blockident.h"
#include "fuzz_check.h"
#include "util/error.h"
#include "util/escape.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char big[300], again[300];
	const char *text;
	size_t outlen, len, n, k;
	char *out, *name;
	int rc, rc_big;
	enum tw_disk_type t;

	if (size < 1)
		return 0;
	outlen = data[0] % 128;
	text = (const char *)data + 1;
	len = size - 1;
	out = outlen > 0 ? malloc(outlen) : NULL;
	if (outlen > 0 && out == NULL)
		abort();

	rc = tw_ident_parse_value(text, len, out, outlen);
	rc_big = tw_ident_parse_value(text, len, big, sizeof(big));
	FUZZ_ASSERT(rc_big == TW_OK || rc_big == TW_E_INVAL || rc_big == TW_E_TOOBIG);
	if (outlen == 0) {
		FUZZ_ASSERT(rc == TW_E_INVAL);
	} else if (rc == TW_OK) {
		FUZZ_ASSERT(rc_big == TW_OK && strcmp(out, big) == 0);
		FUZZ_ASSERT(strlen(out) < outlen);
	} else {
		FUZZ_ASSERT(out[0] == '\0');
		FUZZ_ASSERT(rc == TW_E_INVAL || rc == TW_E_TOOBIG);
		if (rc == TW_E_INVAL)
			FUZZ_ASSERT(rc_big == TW_E_INVAL);
	}
	if (rc_big == TW_OK) {
		n = strlen(big);
		FUZZ_ASSERT(n > 0 && n <= 4 * len);
		FUZZ_ASSERT(big[0] != ' ' && big[n - 1] != ' ');
		FUZZ_ASSERT(tw_escape_is_shown(big, n));
		FUZZ_ASSERT(tw_unescape(again, sizeof(again), big, &k) == TW_OK);
		FUZZ_ASSERT(k > 0 && k <= len && memmem(text, len, again, k) != NULL);
	} else {
		FUZZ_ASSERT(big[0] == '\0');
	}

	/* As a device name: a type of the list, whatever the name. */
	name = fuzz_strndup(data + 1, size - 1);
	t = tw_ident_classify(name, data[0] & 1, data[0] & 2, data[0] & 4, name);
	FUZZ_ASSERT(strcmp(tw_disk_type_name(t), "unknown") != 0 || t == TW_DISK_TYPE_UNKNOWN);
	if (data[0] & 2)
		FUZZ_ASSERT(t == TW_DISK_TYPE_DM || t == TW_DISK_TYPE_MULTIPATH);
	free(name);
	free(out);
	return 0;
}
