// SPDX-License-Identifier: GPL-2.0
#include "cli/run_turns.h"

#include <errno.h>
#include <string.h>

#include "harness/interrupt.h"
#include "harness/turns.h"

struct turn_table {
	struct run_turn *turns;
	size_t n;
	const struct cp_area_context *context;
	struct cli_progress *progress;
};

static void header_of(struct cp_results *own, const struct cp_results *run)
{
	*own = *run;
	own->measurements = NULL;
	own->nr_measurements = 0;
	own->capacity = 0;
	own->nr_area_notes = 0;
	own->nr_levels = 0;
	own->nr_skipped_areas = 0;
	own->interrupted = false;
	own->interrupted_reason[0] = '\0';
}

static void start_turn(size_t index, void *data)
{
	struct turn_table *table = data;
	struct run_turn *turn = &table->turns[index];

	cli_progress_area(table->progress, turn->area->name, index, table->n);
	if (!turn->begun) {
		turn->begun = true;
		turn->started = table->progress->started;
	}
	table->progress->started = turn->started;
}

static void run_one(size_t index, void *data)
{
	struct turn_table *table = data;
	struct run_turn *turn = &table->turns[index];
	struct cp_area_context context = *table->context;

	context.results = &turn->results;
	/* An area not begun when the run was stopped is not begun at all,
	 * as when the areas ran one after another. */
	if (cp_interrupt_requested()) {
		turn->ret = -EINTR;
		turn->stopped = true;
		return;
	}
	turn->ret = turn->area->run(&context, &turn->error);
	turn->stopped = cp_interrupt_requested();
	cli_progress_clear(table->progress);
}

void run_turns(struct run_turn *turns, size_t n,
	       const struct cp_area_context *context,
	       struct cli_progress *progress)
{
	struct turn_table table = {
		.turns = turns, .n = n, .context = context,
		.progress = progress,
	};

	for (size_t i = 0; i < n; i++)
		header_of(&turns[i].results, context->results);
	cp_turns_run(n, run_one, start_turn, &table);
}

int run_turn_merge(struct cp_results *into, struct run_turn *turn)
{
	struct cp_results *own = &turn->results;
	size_t moved = 0;
	int ret = 0;

	for (; moved < own->nr_measurements; moved++) {
		struct cp_measurement *m = cp_results_add(into);

		if (!m) {
			ret = -ENOMEM;
			break;
		}
		*m = own->measurements[moved];
	}
	/* What moved is @into's to free now. */
	if (moved < own->nr_measurements)
		memmove(own->measurements, own->measurements + moved,
			(own->nr_measurements - moved) *
				sizeof(*own->measurements));
	own->nr_measurements -= moved;
	for (size_t i = 0; i < own->nr_area_notes; i++)
		cp_results_note(into, own->area_notes[i].area, "%s",
				own->area_notes[i].text);
	if (own->nr_levels) {
		into->nr_levels = own->nr_levels;
		memcpy(into->levels, own->levels, sizeof(into->levels));
	}
	cp_results_free(own);
	return ret;
}
