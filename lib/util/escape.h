/* SPDX-License-Identifier: ISC */
/* Shown strings: what tunewatch does with a string it did not write.
 *
 * A name that comes from a process (its comm), a cgroup (its path), a
 * device (its name, its sysfs attributes) or any other file is whatever
 * someone chose, and a local user chooses freely: a comm is any 15 bytes
 * but NUL, a cgroup any bytes but '/'. Printed raw, a newline in one
 * forges a line of a check's long output, a carriage return overprints a
 * terminal line, an escape sequence drives the terminal, and a byte that
 * is not UTF-8 turns an SNMP DisplayString into hex and breaks a JSON
 * encoder. So every such string is escaped once, where it enters the
 * sample, and everything downstream (the MIB, the checks' output, traps,
 * tickets) carries only the escaped form, its "shown" form:
 *
 *   - a byte of a control character (0x00-0x1f, 0x7f, the C1 controls
 *     U+0080-U+009F), of a line or paragraph separator (U+2028, U+2029)
 *     or of a bidirectional override or isolate (U+202A-U+202E,
 *     U+2066-U+2069), which reorder what a terminal shows, is written
 *     \xNN (two lower-case hex digits);
 *   - a byte that is not part of valid UTF-8 (RFC 3629: no overlong
 *     forms, no surrogates, nothing past U+10FFFF) is written \xNN;
 *   - the backslash itself is written \x5c, so that every backslash of a
 *     shown string begins an escape and the form can be read back
 *     exactly (tw_unescape);
 *   - everything else, valid multi-byte UTF-8 included, stays as it is.
 *
 * A shown string is therefore valid UTF-8 with no control character in
 * it, at most four times as long as the raw one. Every writer below is
 * bounded by its buffer and never cuts a unit (one character, or one
 * \xNN escape) in half: what does not fit is left out whole. */
#ifndef TW_ESCAPE_H
#define TW_ESCAPE_H

#include <stddef.h>

/* Room for the shown form of n raw bytes, and the NUL. */
#define TW_ESCAPE_SIZE(n) (4 * (n) + 1)

/* Write the shown form of len bytes of raw into dst (cap bytes, the NUL
 * included; raw may hold NULs, which are escaped). TW_OK when all of it
 * fitted; TW_E_TOOBIG when it did not, and dst then holds the units that
 * fitted; TW_E_INVAL when dst is NULL or cap is 0. dst is always
 * NUL-terminated (cap > 0). */
int tw_escape(char *dst, size_t cap, const char *raw, size_t len);

/* tw_escape of a NUL-terminated string (NULL reads as ""). */
int tw_escape_str(char *dst, size_t cap, const char *raw);

/* Copy len bytes of a string that should already be shown into dst, cut
 * to fit at a unit's boundary, and make it shown whatever it holds: an
 * escape, a valid character and a plain byte are kept; a control byte,
 * a byte that is not UTF-8 and a backslash that begins no escape are
 * escaped; an escape or a character cut short at the very end (by an
 * earlier snprintf that ran out of room) is dropped. For strings that
 * travel (view rows, SNMP answers, texts built around names), so that a
 * cut never leaves half a character and a foreign agent's raw bytes are
 * shown like any others. A shown string that fits is copied unchanged.
 * Returns as tw_escape. */
int tw_escape_tidy(char *dst, size_t cap, const char *src, size_t len);

/* tw_escape_tidy of a NUL-terminated string (NULL reads as ""). */
int tw_escape_copy(char *dst, size_t cap, const char *src);

/* The first unit (a character, or an \xNN escape) of the shown string s
 * that starts at p or after it (p within s): where a string cut at its
 * head may begin. */
const char *tw_escape_unit_start(const char *s, const char *p);

/* 1 when len bytes of raw would change when escaped: a word that a kernel
 * file writes itself (a zone's name) and that would is no such word. */
int tw_escape_needed(const char *raw, size_t len);

/* 1 when len bytes of s are in the shown form: valid UTF-8, no character
 * that tw_escape escapes, and every backslash the start of an \xNN
 * escape (either case of hex digit). */
int tw_escape_is_shown(const char *s, size_t len);

/* 1 when the shown string s holds an escape of a byte other than the
 * backslash: the raw string had a control character or a byte that is
 * not UTF-8. */
int tw_escape_had_unprintable(const char *s);

/* The raw bytes of a shown string, for the one place that must hand a
 * name back to the system it came from (a unit's name in a systemctl
 * command): into dst (cap bytes; *outlen gets the length, which may
 * count NULs; dst is NUL-terminated). TW_E_INVAL when shown is not a
 * shown string (a backslash that begins no escape, or a raw control
 * byte), TW_E_TOOBIG when it does not fit; dst is "" on error. */
int tw_unescape(char *dst, size_t cap, const char *shown, size_t *outlen);

#endif
