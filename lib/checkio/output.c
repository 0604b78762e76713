/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "checkio/output.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/error.h"

void
tw_out_init(struct tw_out *o, const char *service)
{
	o->service = service;
	tw_buf_init(&o->summary);
	tw_buf_init(&o->perf);
	o->labels = NULL;
	o->nlabels = o->labels_cap = 0;
	tw_buf_init(&o->lines);
	tw_buf_init(&o->final);
	o->limit = TW_OUT_LIMIT_DEFAULT;
	o->err = TW_OK;
}

void
tw_out_free(struct tw_out *o)
{
	tw_buf_free(&o->summary);
	tw_buf_free(&o->perf);
	free(o->labels);
	o->labels = NULL;
	o->nlabels = o->labels_cap = 0;
	tw_buf_free(&o->lines);
	tw_buf_free(&o->final);
}

int
tw_out_set_limit(struct tw_out *o, size_t limit)
{
	if (limit != 0 && limit < TW_OUT_LIMIT_MIN)
		return TW_E_INVAL;
	o->limit = limit;
	return TW_OK;
}

/* Make room for need more bytes (and a NUL) in b, recording a failure. */
static int
out_reserve(struct tw_out *o, struct tw_buf *b, size_t need)
{
	int rc;

	if (o->err != TW_OK)
		return o->err;
	if (need > TW_READ_MAX - b->len) {
		o->err = TW_E_TOOBIG;
		return o->err;
	}
	rc = tw_buf_reserve(b, b->len + need + 1);
	if (rc != TW_OK)
		o->err = rc;
	return rc;
}

static int TW_PRINTF(4, 0)
out_vappend(struct tw_out *o, struct tw_buf *b, int one_line, const char *fmt, va_list ap)
{
	va_list aq;
	size_t i;
	int n, rc;

	if (o->err != TW_OK)
		return o->err;
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return TW_E_INVAL;
	rc = out_reserve(o, b, (size_t)n + 1);
	if (rc != TW_OK)
		return rc;
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	for (i = b->len; i < b->len + (size_t)n; i++) {
		if (b->data[i] == '|')
			b->data[i] = '/';
		else if (one_line && (b->data[i] == '\n' || b->data[i] == '\r'))
			b->data[i] = ' ';
	}
	b->len += (size_t)n;
	b->data[b->len] = '\0';
	return TW_OK;
}

int
tw_out_printf(struct tw_out *o, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = out_vappend(o, &o->summary, 1, fmt, ap);
	va_end(ap);
	return rc;
}

int
tw_out_line(struct tw_out *o, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = out_vappend(o, &o->lines, 0, fmt, ap);
	va_end(ap);
	if (rc != TW_OK)
		return rc;
	rc = out_reserve(o, &o->lines, 1);
	if (rc != TW_OK)
		return rc;
	o->lines.data[o->lines.len++] = '\n';
	o->lines.data[o->lines.len] = '\0';
	return TW_OK;
}

int
tw_out_perf(struct tw_out *o, const struct tw_perf *p)
{
	size_t need;
	char *item;
	void *grown;
	int rc;

	if (o->err != TW_OK)
		return o->err;
	if (p->label == NULL)
		return TW_E_INVAL;
	/* Worst case: every label byte doubled, quotes, '=', four ';', two
	 * ranges and three numbers of at most 330 bytes each, the UOM. */
	need = 2 * strlen(p->label) + 2 + 1 + 4 + 2 * TW_RANGE_TEXT_LEN + 3 * 330 + 3 + 1;
	rc = out_reserve(o, &o->perf, need + 1);
	if (rc != TW_OK)
		return rc;
	rc = tw_perf_format(p, o->perf.data + o->perf.len, o->perf.cap - o->perf.len);
	if (rc != TW_OK) {
		o->perf.data[o->perf.len] = '\0';
		return rc;
	}
	rc = tw_array_grow(o->labels, &o->labels_cap, o->nlabels + 1, sizeof(*o->labels), &grown);
	o->labels = grown;
	if (rc != TW_OK) {
		o->perf.data[o->perf.len] = '\0';
		o->err = rc;
		return rc;
	}
	item = o->perf.data + o->perf.len;
	o->labels[o->nlabels].start = o->perf.len;
	o->labels[o->nlabels].len = (size_t)(strchr(item, '=') - item);
	o->labels[o->nlabels].subject = tw_out_subject_hash(p->subject != NULL ? p->subject : p->label);
	o->nlabels++;
	o->perf.len += strlen(item);
	o->perf.data[o->perf.len++] = '\n';
	o->perf.data[o->perf.len] = '\0';
	return TW_OK;
}

int
tw_out_figure(struct tw_out *o, const char *name, const char *subject, const char *what,
    double v, const char *uom, unsigned precision, const struct tw_range *warn,
    const struct tw_range *crit, int percent)
{
	char label[TW_OUT_FIGURE_LABEL];
	struct tw_perf item;

	if (name != NULL) {
		size_t n = strlen(name), w = strlen(what);
		int len;

		if (w + 5 > sizeof(label))
			return TW_E_INVAL;
		/* A long name keeps its tail, where a path's unit is, and every
		 * label keeps its figure's word: a cut must never make two
		 * figures of one subject one label. */
		if (n + w + 2 > sizeof(label)) {
			int keep = (int)(sizeof(label) - w - 5);

			len = snprintf(label, sizeof(label), "...%.*s %s", keep,
			    name + n - (size_t)keep, what);
		} else
			len = snprintf(label, sizeof(label), "%s %s", name, what);
		if (len < 0 || (size_t)len >= sizeof(label))
			return TW_E_INVAL;	/* no label rather than half of one */
		what = label;
	}
	memset(&item, 0, sizeof(item));
	item.label = what;
	item.subject = subject;
	item.value = v;
	item.uom = uom;
	item.precision = precision;
	item.warn = warn;
	item.crit = crit;
	item.has_min = 1;
	item.has_max = percent;
	item.max = 100;
	return tw_out_perf(o, &item);
}

/* Length of text without its last '\n'-ended line (a perfdata item or a
 * long-output line). */
static size_t
drop_last_line(const char *text, size_t len)
{
	if (len == 0)
		return 0;
	len--;			/* the line's own '\n' */
	while (len > 0 && text[len - 1] != '\n')
		len--;
	return len;
}

static size_t
count_records(const char *text, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		n += text[i] == '\n';
	return n;
}

/* Keep only the long-output lines that fit in o->limit beside rest bytes
 * of status line, and say how many were left out (note, when it fits too).
 * An indented line belongs to the line above it (a finding's apply and
 * persist lines under its tune: line): a cut never falls inside such a
 * group, so no reader gets half of one. Returns the length kept. */
static size_t
fit_lines(const struct tw_out *o, size_t llen, size_t rest, char *note, size_t notelen)
{
	size_t all = count_records(o->lines.data, o->lines.len);

	for (;;) {
		while (llen > 0 && rest + llen + strlen(note) > o->limit)
			llen = drop_last_line(o->lines.data, llen);
		while (llen > 0 && o->lines.data[llen] == ' ')
			llen = drop_last_line(o->lines.data, llen);
		snprintf(note, notelen, "(%zu more lines left out to keep the output within %zu "
		    "bytes)\n", all - count_records(o->lines.data, llen), o->limit);
		if (rest + llen + strlen(note) <= o->limit)
			return llen;
		if (llen == 0) {
			note[0] = '\0';
			return 0;
		}
	}
}

int
tw_out_finish(struct tw_out *o, enum tw_state st, const char **text, size_t *len)
{
	const char *state = tw_state_name(st);
	size_t head, slen = o->summary.len, plen = o->perf.len, llen = o->lines.len;
	size_t total, nperf, i;
	int cut = 0, rc;
	struct tw_buf *f = &o->final;
	char note[96] = "";

	if (o->err != TW_OK)
		return o->err;
	if ((rc = tw_out_tell_subjects_apart(&o->perf, o->labels, &o->nlabels)) != TW_OK) {
		o->err = rc;
		return rc;
	}
	plen = o->perf.len;
	head = strlen(state);
	if (o->service != NULL && o->service[0] != '\0')
		head += strlen(o->service) + 1;

	/* Items are stored '\n'-ended; printed, they are ' '-separated, so
	 * " | " plus the stored length minus one for the last '\n'. */
#define TOTAL() (head + (slen > 0 ? 3 + slen : 0) + (plen > 0 ? 3 + plen - 1 : 0) + 1 + llen)
	total = TOTAL();
	if (o->limit != 0 && total > o->limit && llen > 0) {
		llen = fit_lines(o, llen, total - llen, note, sizeof(note));
		total = TOTAL() + strlen(note);
	}
	while (o->limit != 0 && total > o->limit && plen > 0) {
		plen = drop_last_line(o->perf.data, plen);
		total = TOTAL();
	}
	if (o->limit != 0 && total > o->limit && slen > 0) {
		size_t room = o->limit > head + 3 + 3 + 1 ? o->limit - (head + 3 + 3 + 1) : 0;

		slen = room < slen ? room : slen;
		/* Do not leave half a UTF-8 sequence before the "...". */
		while (slen > 0 && ((unsigned char)o->summary.data[slen] & 0xc0) == 0x80)
			slen--;
		cut = 1;
		total = TOTAL();
	}
#undef TOTAL
	/* Room for the "..." and " - " of a cut summary, and the NUL. */
	rc = tw_buf_reserve(f, total + 8);
	if (rc != TW_OK) {
		o->err = rc;
		return rc;
	}
	f->len = 0;
	if (o->service != NULL && o->service[0] != '\0') {
		memcpy(f->data, o->service, strlen(o->service));
		f->len = strlen(o->service);
		f->data[f->len++] = ' ';
	}
	memcpy(f->data + f->len, state, strlen(state));
	f->len += strlen(state);
	if (slen > 0 || cut) {
		memcpy(f->data + f->len, " - ", 3);
		f->len += 3;
		if (slen > 0)
			memcpy(f->data + f->len, o->summary.data, slen);
		f->len += slen;
		if (cut) {
			memcpy(f->data + f->len, "...", 3);
			f->len += 3;
		}
	}
	if (plen > 0) {
		memcpy(f->data + f->len, " | ", 3);
		f->len += 3;
		nperf = count_records(o->perf.data, plen);
		for (i = 0; i < plen; i++) {
			char c = o->perf.data[i];

			if (c == '\n') {
				if (--nperf == 0)
					break;
				c = ' ';
			}
			f->data[f->len++] = c;
		}
	}
	f->data[f->len++] = '\n';
	if (llen > 0)
		memcpy(f->data + f->len, o->lines.data, llen);
	f->len += llen;
	memcpy(f->data + f->len, note, strlen(note));
	f->len += strlen(note);
	f->data[f->len] = '\0';
	*text = f->data;
	*len = f->len;
	return TW_OK;
}
