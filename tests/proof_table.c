/* SPDX-License-Identifier: ISC */
/* Prints lib/advice/proof.c's table, one row a line, tab-separated: the
 * symptom's token, the knob, the scenario, the figure and the effect; with
 * --tried the rows tried and not shown (the symptom's token, the knob, the
 * guest scenario, the effect or "", and why); for tests/proof_lab.py,
 * which holds them to the committed lab results. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "advice/proof.h"
#include "advice/ticket.h"

int
main(int argc, char **argv)
{
	const struct tw_proof *rows;
	const struct tw_proof_tried *tried;
	size_t i, n = tw_proofs(&rows);

	if (argc > 1 && strcmp(argv[1], "--tried") == 0) {
		n = tw_proofs_tried(&tried);
		for (i = 0; i < n; i++)
			printf("%s\t%s\t%s\t%s\t%s\n", tw_symptom_name(tried[i].sym),
			    tried[i].knob, tried[i].scenario, tried[i].effect, tried[i].why);
		return 0;
	}
	for (i = 0; i < n; i++)
		printf("%s\t%s\t%s\t%s\t%s\n", tw_symptom_name(rows[i].sym), rows[i].knob,
		    rows[i].scenario, rows[i].figure, rows[i].effect);
	return 0;
}
