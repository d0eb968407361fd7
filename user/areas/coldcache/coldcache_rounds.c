// SPDX-License-Identifier: GPL-2.0
/*
 * coldcache's rounds: a repetition of every entry of a rotation, one of
 * the bandwidth comparison and the timer floor's probes, then the turn
 * to the run's other areas.
 */
#include "areas/coldcache/coldcache.h"

#include <errno.h>
#include <stdlib.h>

#include "evict/coldcache_lines.h"
#include "harness/clock.h"
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
	double before;
	int ret;

	for (;;) {
		before = cp_clock_core_cycles_per_tick();
		ret = cold_rotation_round(run, rotation, error);
		if (ret <= 0)
			return ret;
		cp_round_clock_note(&run->clock, before,
				    cp_clock_core_cycles_per_tick());
		if (floor && cold_probe_floor(run))
			return cp_error_set(error, ENOMEM,
					    "coldcache: no memory");
		ret = bw ? cold_bandwidth_round(run, bw, error) : 0;
		if (!ret && cold_rotation_pending(run, rotation))
			ret = cp_turn_pass();
		if (ret)
			return ret;
	}
}

int cold_finish_rounds(struct cold_run *run, struct cold_entry *entries,
		       size_t nr, int ret, struct cp_error *error)
{
	int recorded = cold_record_entries(run, entries, nr);

	for (size_t e = 0; e < nr; e++)
		cold_outcome_free(&entries[e].outcome);
	if (recorded && !ret)
		ret = cp_error_set(error, ENOMEM, "coldcache: no memory");
	return ret;
}
