/* SPDX-License-Identifier: ISC */
/* Prints every Linux action of lib/advice, one a line, tab-separated: the
 * symptom's token, the tunable, where it is turned, what is done to it, and
 * the proof row lib/advice/proof.c has for it (its scenario and effect, or
 * two empty fields). From the product's own tables: rules.c's rules with a
 * Linux action, each ratio/bytes twin a line of its own (the kernel takes
 * one or the other, so each is a command of its own), and a service's
 * memory limit in each form the ticket lines write (cgroup.c, ticket.h):
 * a system unit's property, a user unit's, a plain cgroup's file. For
 * tests/guest/coverage.py, which holds the lab's scenarios to it. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "advice/advice.h"
#include "advice/advice_cgroup.h"
#include "advice/proof.h"
#include "advice/ticket.h"
#include "util/error.h"

static void
row(enum tw_symptom sym, const char *tunable, const char *scope, const char *action)
{
	const struct tw_proof *p = tw_proof_find(sym, tunable);

	printf("%s\t%s\t%s\t%s\t%s\t%s\n", tw_symptom_name(sym), tunable, scope, action,
	    p != NULL ? p->scenario : "", p != NULL ? p->effect : "");
}

static void
action_text(const struct tw_advice_action *a, char *buf, size_t len)
{
	const char *op = a->op == TW_ADV_DOUBLE ? "double" : a->op == TW_ADV_HALVE ? "halve" :
	    "set";

	if (a->op == TW_ADV_SET_WORD)
		snprintf(buf, len, "set %s", a->set_word);
	else if (a->op == TW_ADV_SET_NUM)
		snprintf(buf, len, "set %lld (%s)", (long long)a->set_num,
		    a->dir == TW_ADV_UP ? "up" : "down");
	else if (a->field == TW_ADV_ALL_FIELDS)
		snprintf(buf, len, "%s every field", op);
	else if (a->field > 0)
		snprintf(buf, len, "%s field %d", op, a->field + 1);
	else
		snprintf(buf, len, "%s", op);
}

static void
rules(void)
{
	const struct tw_advice_rule *all;
	size_t i, n = tw_advice_all(&all);
	char act[64], scope[160];

	for (i = 0; i < n; i++) {
		const struct tw_advice_action *a = &all[i].os[TW_OS_LINUX];

		if (a->name == NULL)
			continue;
		action_text(a, act, sizeof(act));
		row(all[i].sym, a->name, a->flags & TW_ADV_PER_DEVICE ? "per device" : "sysctl", act);
		if (a->twin == NULL)
			continue;
		action_text(a->twin, act, sizeof(act));
		if (a->flags & TW_ADV_TWIN_IF_ZERO)
			snprintf(scope, sizeof(scope), "sysctl, instead of %s when it reads 0",
			    a->name);
		else
			snprintf(scope, sizeof(scope), "sysctl, instead of %s when %s is set",
			    a->name, a->twin->name);
		row(all[i].sym, a->twin->name, scope, act);
	}
}

/* The limit files a ticket writes, as the product accepts them. */
static const char *const limit_files[] = { "memory.high", "memory.max", "memory.limit_in_bytes",
    "memory.low", "memory.min", "memory.swap.max", "memory.soft_limit_in_bytes" };

static void
cgroup_forms(void)
{
	char line[512], scope[32];
	size_t i;
	int v;

	for (v = 2; v >= 1; v--) {
		for (i = 0; i < sizeof(limit_files) / sizeof(limit_files[0]); i++) {
			const char *file = limit_files[i], *prop;

			if (tw_ticket_apply_cgroup_file(line, sizeof(line), v, "/example", file,
			    1 << 28) != TW_OK)
				continue;
			prop = tw_advice_cgroup_tunable(file, 1);
			if (tw_ticket_apply_unit(line, sizeof(line), "example.service", prop,
			    "256M") == TW_OK)
				row(TW_SYM_CGROUP_CACHE_BOUNDED, prop, "system unit", line);
			/* A user's manager has a memory controller on v2 only. */
			if (v == 2 && tw_ticket_apply_user_unit(line, sizeof(line), 1000,
			    "example.service", prop, "256M") == TW_OK)
				row(TW_SYM_CGROUP_CACHE_BOUNDED, prop, "user unit", line);
			tw_ticket_apply_cgroup_file(line, sizeof(line), v, "/example", file, 1 << 28);
			snprintf(scope, sizeof(scope), "cgroup v%d file", v);
			row(TW_SYM_CGROUP_CACHE_BOUNDED, file, scope, line);
		}
	}
}

int
main(void)
{
	rules();
	cgroup_forms();
	return 0;
}
