/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/checkio/ini.c, the ini reader behind --extra-opts: every
 * kind of line, the sections they fall in, and stopping early. */
#include "checkio/ini.h"
#include "tw_check.h"
#include "util/scan.h"

struct record {
	char log[2048];
	int stop_at;		/* stop with 7 at this item (1-based), or 0 */
	int n;
};

static int
record_item(void *ctx, const struct tw_ini_item *it)
{
	struct record *r = ctx;
	char line[256];

	switch (it->kind) {
	case TW_INI_SECTION:
		snprintf(line, sizeof(line), "%lu:S[%.*s] ", it->line, (int)it->section_len,
		    it->section);
		break;
	case TW_INI_OPTION:
		snprintf(line, sizeof(line), "%lu:O%s%.*s:%.*s%s%.*s ", it->line,
		    it->section != NULL ? "" : "!", (int)it->section_len,
		    it->section != NULL ? it->section : "", (int)it->key_len, it->key,
		    it->value != NULL ? "=" : "", (int)it->value_len,
		    it->value != NULL ? it->value : "");
		break;
	case TW_INI_MALFORMED:
		snprintf(line, sizeof(line), "%lu:M%s ", it->line,
		    it->section != NULL ? "" : "!");
		break;
	}
	strncat(r->log, line, sizeof(r->log) - strlen(r->log) - 1);
	return ++r->n == r->stop_at ? 7 : 0;
}

START_TEST(test_ini_parse)
{
	static const char text[] =
	    "k0=v\n"
	    "[a]\n"
	    "  x = 1 \n"
	    "y\n"
	    "z=\n"
	    "# c\n"
	    "; c\n"
	    "\n"
	    "bad key=1\n"
	    "[b] # note\n"
	    "v=a=b\n"
	    "[c\n"
	    "after=1\n"
	    "[]\n"
	    "[d]x\n"
	    "-k=1\n"
	    "k.e_y-2=ok\n"
	    "\x01=1\n"
	    "nul=\0x\n"
	    "[e]\n"
	    "last=no newline";
	struct tw_parse_stats st = { 0, 0 };
	struct record r;

	memset(&r, 0, sizeof(r));
	ck_assert_int_eq(tw_ini_parse(text, sizeof(text) - 1, record_item, &r, &st), 0);
	ck_assert_str_eq(r.log,
	    "1:O!:k0=v 2:S[a] 3:Oa:x=1 4:Oa:y 5:Oa:z= 9:M 10:S[b] 11:Ob:v=a=b "
	    "12:M! 13:O!:after=1 14:M! 15:M! 16:M! 17:O!:k.e_y-2=ok 18:M! 19:M! "
	    "20:S[e] 21:Oe:last=no newline ");
	ck_assert_uint_eq(st.lines, 21);
	ck_assert_uint_eq(st.malformed, 7);

	/* The callback can stop the parse; its value comes back. */
	memset(&r, 0, sizeof(r));
	r.stop_at = 3;
	ck_assert_int_eq(tw_ini_parse(text, sizeof(text) - 1, record_item, &r, NULL), 7);
	ck_assert_str_eq(r.log, "1:O!:k0=v 2:S[a] 3:Oa:x=1 ");

	/* Empty input and lone newlines. */
	memset(&r, 0, sizeof(r));
	ck_assert_int_eq(tw_ini_parse("", 0, record_item, &r, NULL), 0);
	ck_assert_int_eq(tw_ini_parse("\n\n\r\n", 4, record_item, &r, NULL), 0);
	ck_assert_str_eq(r.log, "");
}
END_TEST

static Suite *
ini_suite(void)
{
	Suite *s = suite_create("ini");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_ini_parse);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(ini_suite());
}
