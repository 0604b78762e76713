/* SPDX-License-Identifier: ISC */
#include "config.h"

/* libFuzzer target for tw_vmstat_parse (lib/collect/vmstat.c).
 *
 * It checks the line counts and that only the known fields are set. The
 * text is not cut in two here: the older keys and the allocstall_ sum are
 * resolved over one call, so two halves may rightly differ. Instead it
 * checks that a second call on the same struct, with the same text, gives
 * the same fields (the sum starts again at each call, it does not
 * accumulate into the struct). */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "util/error.h"
#include "collect/vmstat.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct tw_vmstat vm, twice;
	struct tw_parse_stats ps = { 0, 0 }, ps2 = { 0, 0 };
	int i;

	memset(&vm, 0, sizeof(vm));
	FUZZ_ASSERT(tw_vmstat_parse(text, size, &vm, &ps) == TW_OK);
	fuzz_check_stats(&ps, text, size);
	FUZZ_ASSERT((vm.present & ~((UINT32_C(1) << TW_VM_NFIELDS) - 1)) == 0);
	for (i = 0; i < TW_VM_NFIELDS; i++)
		if (!(vm.present & (UINT32_C(1) << i)))
			FUZZ_ASSERT(vm.v[i] == 0);
	if (vm.present != 0)
		FUZZ_ASSERT(ps.malformed < ps.lines);

	twice = vm;
	FUZZ_ASSERT(tw_vmstat_parse(text, size, &twice, &ps2) == TW_OK);
	FUZZ_ASSERT(ps2.lines == ps.lines && ps2.malformed == ps.malformed);
	FUZZ_ASSERT(twice.present == vm.present);
	FUZZ_ASSERT(memcmp(twice.v, vm.v, sizeof(vm.v)) == 0);
	return 0;
}
