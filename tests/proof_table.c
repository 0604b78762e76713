/* SPDX-License-Identifier: ISC */
/* Prints lib/advice/proof.c's table, one row a line, tab-separated: the
 * symptom's token, the knob, the scenario, the figure and the effect; for
 * tests/proof_lab.py, which holds it to the committed lab results. */
#include "config.h"

#include <stdio.h>

#include "advice/proof.h"
#include "advice/ticket.h"

int
main(void)
{
	const struct tw_proof *rows;
	size_t i, n = tw_proofs(&rows);

	for (i = 0; i < n; i++)
		printf("%s\t%s\t%s\t%s\t%s\n", tw_symptom_name(rows[i].sym), rows[i].knob,
		    rows[i].scenario, rows[i].figure, rows[i].effect);
	return 0;
}
