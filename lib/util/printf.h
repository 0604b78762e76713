/* SPDX-License-Identifier: ISC */
/* TW_PRINTF(f, a): the function's argument f is a printf format and its
 * arguments start at a, so the compiler checks them (GCC and Clang; a
 * no-op elsewhere). */
#ifndef TW_PRINTF_H
#define TW_PRINTF_H

#if defined(__GNUC__)
#define TW_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TW_PRINTF(f, a)
#endif

#endif
