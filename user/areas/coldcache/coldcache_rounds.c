// SPDX-License-Identifier: GPL-2.0
/*
 * coldcache's rounds: a repetition of every entry of a rotation, the
 * bandwidth's and the timer floor's probes, a new naive buffer, then the
 * turn to the run's other areas.
 */
#include "areas/coldcache/coldcache.h"

#include <errno.h>
#include <stdlib.h>

#include "evict/coldcache_lines.h"
#include "harness/turns.h"

/* The timer floor's probes of one round, for the "line timer floor"
 * measurement. */
int cold_probe_floor(struct cold_run *run)
{
	size_t have = run->floor_rounds * COLD_FLOOR_PROBES;
	uint16_t *steps = realloc(run->floor_steps,
				  (have + COLD_FLOOR_PROBES) * sizeof(*steps));

	if (!steps)
		return -ENOMEM;
	run->floor_steps = steps;
	cp_lines_timer_steps(steps + have, COLD_FLOOR_PROBES);
	run->floor_rounds++;
	return 0;
}

/* naive reads the same buffer every time, as the classic recipe does; a
 * new one each round (new physical pages, so new cache sets) makes the
 * rounds differ as runs do: its eviction time moved 8 to 19 % from one
 * run to the next with one buffer a run. */
static int redraw_naive(struct cold_run *run,
			const struct cold_rotation *rotation,
			struct cp_error *error)
{
	int ret;

	for (size_t e = 0; e < rotation->nr; e++)
		if (rotation->entries[e].method == CP_COLD_GARBAGE_NAIVE) {
			ret = cp_garbage_redraw_naive(&run->garbage);
			if (ret == -ENOMEM)
				return cp_error_set(error, ENOMEM,
						    "coldcache: no memory for a new %llu-byte naive garbage buffer",
						    (unsigned long long)CP_NAIVE_GARBAGE_BYTES);
			return ret;
		}
	return 0;
}

/*
 * Round after round until every entry has its repetitions, with a
 * repetition of @bw (may be NULL) and, with @floor, the timer floor's
 * probes in each, and the turn passed to the run's other areas between
 * rounds.
 */
int cold_take_rounds(struct cold_run *run, struct cold_rotation *rotation,
		     struct cold_bandwidth *bw, bool floor,
		     struct cp_error *error)
{
	int ret;

	for (;;) {
		ret = cold_rotation_round(run, rotation, error);
		if (ret <= 0)
			return ret;
		ret = 0;
		if (floor && cold_probe_floor(run))
			return cp_error_set(error, ENOMEM,
					    "coldcache: no memory");
		if (bw)
			ret = cold_bandwidth_round(run, bw, error);
		if (!ret)
			ret = redraw_naive(run, rotation, error);
		if (!ret)
			ret = cp_turn_pass();
		if (ret)
			return ret;
	}
}

/* What rounds measured (also when cut short: the results say so), then
 * the first error. */
int cold_finish_rounds(struct cold_run *run, struct cold_rotation *rotation,
		       int ret, struct cp_error *error)
{
	int recorded;

	cold_rotation_end(rotation);
	recorded = cold_record_entries(run, rotation->entries, rotation->nr);
	for (size_t e = 0; e < rotation->nr; e++)
		cold_outcome_free(&rotation->entries[e].outcome);
	if (recorded && !ret)
		ret = cp_error_set(error, ENOMEM, "coldcache: no memory");
	return ret;
}
