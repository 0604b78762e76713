#include "config.h"

/* One suggestion as the line a person reads: what to change, from what to
 * what, the evidence, and what else they must know (a reboot, a relink, a
 * per-device setting, the source). Apart from advice.c, which decides the
 * suggestion: the wording can change without touching a rule. */

#include "advice/advice.h"

#include <inttypes.h>

#include "util/error.h"
#include "util/strwriter.h"

static const char *
verb(enum tw_adv_dir dir)
{
	switch (dir) {
	case TW_ADV_UP:
		return "raise";
	case TW_ADV_DOWN:
		return "lower";
	case TW_ADV_SET:
		return "set";
	}
	return "change";
}

int
tw_advice_format(const struct tw_suggestion *s, const char *detail, char *out, size_t len)
{
	struct tw_strwriter l;
	const char *sep = "; ";

	if (len == 0)
		return TW_E_TOOBIG;
	tw_strwriter_init(&l, out, len);
	if (s == NULL || s->name == NULL)
		return TW_E_INVAL;

	if (s->flags & TW_SUG_CURRENT_UNKNOWN) {
		tw_strwriter_printf(&l, "%s %s", verb(s->dir), s->name);
		if (s->proposed[0] != '\0')
			tw_strwriter_printf(&l, " to %s", s->proposed);
		tw_strwriter_printf(&l, " (current value unknown");
	} else if (s->flags & TW_SUG_AT_LIMIT) {
		tw_strwriter_printf(&l, "%s %s is already at its %s (%" PRId64 ")", s->name,
		    s->current, s->dir == TW_ADV_UP ? "maximum" : "minimum", s->limit);
		sep = " (";
	} else if ((s->flags & TW_SUG_AUTOMATIC) && s->proposed[0] == '\0') {
		tw_strwriter_printf(&l, "%s %s is sized automatically", s->name, s->current);
		sep = " (";
	} else if (s->flags & TW_SUG_NO_CHANGE) {
		if (s->dir == TW_ADV_SET)
			tw_strwriter_printf(&l, "%s is already %s", s->name, s->current);
		else
			tw_strwriter_printf(&l, "%s %s is already at %s %" PRId64, s->name,
			    s->current, s->dir == TW_ADV_UP ? "least" : "most", s->limit);
		sep = " (";
	} else {
		tw_strwriter_printf(&l, "%s %s -> %s", s->name, s->current, s->proposed);
		sep = " (";
	}

	tw_strwriter_printf(&l, "%s%s", sep, detail != NULL && detail[0] != '\0' ? detail :
	    s->reason != NULL ? s->reason : "");
	/* A queue is sized from its drops, the dirty limit from the writes. */
	if ((s->flags & TW_SUG_SIZE_CAPPED) && s->rule != NULL && s->rule->sym == TW_SYM_DIRTY_LIMITED)
		tw_strwriter_printf(&l, "; sized to twice a second of the disk's writes, at most %d "
		    "times the current value", TW_ADVICE_SIZE_CAP);
	else if (s->flags & TW_SUG_SIZE_CAPPED)
		tw_strwriter_printf(&l, "; sized from the drops, at most %d times the current "
		    "value: a queue short by more is drained too slowly", TW_ADVICE_SIZE_CAP);
	else if ((s->flags & TW_SUG_SIZED) && s->rule != NULL &&
	    s->rule->sym == TW_SYM_DIRTY_LIMITED)
		tw_strwriter_printf(&l, "; sized to twice a second of the disk's writes, writers "
		    "being paused from half-way");
	else if (s->flags & TW_SUG_SIZED)
		tw_strwriter_printf(&l, "; sized to hold what was dropped");
	if (s->flags & TW_SUG_SATURATED)
		tw_strwriter_printf(&l, "; capped at its maximum, %" PRId64, s->limit);
	if (s->flags & TW_SUG_ENABLE)
		tw_strwriter_printf(&l, "; 0 means off, %s restores the default", s->proposed);
	if ((s->flags & TW_SUG_AUTOMATIC) && s->proposed[0] != '\0')
		tw_strwriter_printf(&l, "; 0 means sized automatically at boot");
	if (s->flags & TW_SUG_TENTHS)
		tw_strwriter_printf(&l, "; 1-9 count tenths of memory");
	if (s->flags & TW_SUG_PER_CLASS)
		tw_strwriter_printf(&l, "; nnnn is the failing block size");
	if (s->flags & TW_SUG_PER_DEVICE)
		tw_strwriter_printf(&l, "; per device");
	if (s->flags & TW_SUG_RELINK)
		tw_strwriter_printf(&l, "; needs a kernel relink and a reboot");
	else if (s->flags & TW_SUG_NEEDS_REBOOT)
		tw_strwriter_printf(&l, "; a loader tunable: takes effect at the next boot");
	if (s->source != NULL)
		tw_strwriter_printf(&l, "; %s", s->source);
	tw_strwriter_printf(&l, ")");
	return tw_strwriter_finish(&l);
}
