// SPDX-License-Identifier: GPL-2.0
/*
 * The c2c area: the core-to-core latency matrix.  Every pair of the
 * selected CPUs (--cpus, default all), in the order of areas/c2c/c2c_schedule.h,
 * ping-pongs one fresh cache line (CAS round trip and store/load flag),
 * placed on the memory node of the pair's --home side; each pair and
 * variant gets an equal share of --budget, and pairs that the budget
 * cannot hold even at the shortest share are left out, one pair of each
 * class always kept.  User mode on two long-lived
 * pinned threads (areas/c2c/c2c_pingpong.h), kernel mode through PINGPONG.
 * The matrix, heatmap and per-class summary are drawn from the results
 * (areas/c2c/c2c_matrix.h, areas/c2c/c2c_table.c).
 */
#include "areas/c2c/c2c_area.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "areas/c2c/c2c_table.h"
#include "harness/clock.h"
#include "harness/interrupt.h"
#include "harness/turns.h"

struct c2c_run {
	struct cp_c2c_schedule schedule;
	enum cp_c2c_home home;
	unsigned int samples_asked;	/* --samples; 0: not given */
	struct cp_client *client;	/* kernel mode; NULL: user */
	uint64_t max_irqoff_ns;
	struct cp_c2c_pinger *pinger;	/* user mode */
	double done_ns, total_ns;	/* progress */
	/* The budget kept (cp_c2c_share_next()). */
	double start_ns;		/* CLOCK_MONOTONIC */
	/* cp_turn_waited_ns() then: other areas' turns are not c2c's. */
	uint64_t waited_at_start_ns;
	size_t runs_done, runs_left;	/* pairs x variants x modes */
	double sample_cost_ns;		/* c2c_pair_config's */
	double planned_ns;		/* shares given and moves so far */
	/* Pairs left out because the budget could not hold them: what
	 * each mode spent (a user-mode pair under emulation costs a
	 * thousand times a kernel-mode one). */
	unsigned int modes, mode_index;	/* the mode running, from 0 */
	struct {
		double start_ns, took_ns;	/* from start_ns */
		double planned_ns;		/* its shares and moves */
		size_t runs, measured, skipped;
	} mode[2];
	double pair_credit;		/* cp_c2c_pair_fits() */
};

/* The time c2c has taken so far, without other areas' turns. */
static double elapsed_ns(const struct c2c_run *run)
{
	return cp_clock_monotonic_ns() - run->start_ns -
	       (double)(cp_turn_waited_ns() - run->waited_at_start_ns);
}

/* The share of the next pair and variant, the budget kept. */
static double next_share(struct c2c_run *run)
{
	double share = cp_c2c_share_next(&run->schedule, run->runs_done,
					 run->runs_left,
					 elapsed_ns(run),
					 run->planned_ns);

	run->planned_ns += share;
	run->runs_done++;
	run->mode[run->mode_index].planned_ns += share;
	run->mode[run->mode_index].runs++;
	run->runs_left--;
	return share;
}

static unsigned int modes_of(const struct cp_area_options *options,
			     bool module)
{
	switch (options->mode) {
	case CP_AREA_MODE_USER:
	case CP_AREA_MODE_KERNEL:
		return 1;
	case CP_AREA_MODE_BOTH:
		return 2;
	default:
		return module ? 2 : 1;
	}
}

static int plan(const struct cp_area_options *options,
		const struct cp_topology *topology, unsigned int modes,
		struct cp_c2c_schedule *schedule, struct cp_error *error)
{
	const struct cp_c2c_choices *choices =
		cp_area_choices(options, &cp_area_c2c);
	double budget = choices ? choices->budget_ns : 0;
	char why[200];
	int ret = cp_c2c_schedule_build(topology, options->cpus,
					CP_C2C_NR_VARIANTS * modes, budget,
					schedule, why, sizeof(why));

	if (ret == -EINVAL)
		return cp_error_set(error, EINVAL, "c2c: %s", why);
	if (ret)
		return cp_error_set(error, -ret, "c2c: cannot plan the pairs");
	return 0;
}

static int check_c2c(const struct cp_area_options *options,
		     const struct cp_topology *topology, struct cp_error *error)
{
	struct cp_c2c_schedule schedule;
	int ret = plan(options, topology, modes_of(options, false), &schedule,
		       error);

	if (!ret)
		cp_c2c_schedule_free(&schedule);
	return ret;
}

static int open_module(const struct cp_area_options *options,
		       struct c2c_run *run, struct cp_error *error)
{
	static const struct area_module_need need = {
		"c2c", 2, "PINGPONG command",
	};
	struct cp_module_info info;
	int ret = area_open_module(options, &need, &run->client, &info, error);

	if (run->client) {
		run->max_irqoff_ns = info.max_irqoff_ns;
		cp_module_info_free(&info);
	}
	return ret;
}

/* The progress line: @config, and what is left of the budget. */
static void show(struct cp_area_context *context, const struct c2c_run *run,
		 const struct c2c_pair_config *config, bool kernel,
		 unsigned int round, unsigned int rounds)
{
	double left_s = (run->total_ns - run->done_ns) / 1e9;
	char what[96];
	int len;

	c2c_config_name(config, what, sizeof(what));
	len = (int)strlen(what);
	if (rounds > 1)
		len += snprintf(what + len, sizeof(what) - len,
				", round %u of %u", round + 1, rounds);
	snprintf(what + len, sizeof(what) - len,
		 "%s, %.0f s of the budget left", kernel ? " (kernel)" : "",
		 left_s);
	if (context->progress)
		context->progress(context->progress_data, what, run->done_ns,
				  run->total_ns);
}

static struct c2c_pair_config pair_config(struct c2c_run *run,
					  const struct cp_cpu_pair *pair,
					  int variant)
{
	return (struct c2c_pair_config){
		.pair = pair, .variant = (enum cp_c2c_variant)variant,
		.home = run->home, .share_ns = next_share(run),
		.sample_cost_ns = &run->sample_cost_ns,
		.samples_asked = run->samples_asked,
	};
}

static int measure_pair_kernel(struct cp_area_context *context,
			       struct c2c_run *run,
			       const struct cp_cpu_pair *pair,
			       struct cp_error *error)
{
	int ret = 0;

	for (int v = 0; v < CP_C2C_NR_VARIANTS && !ret; v++) {
		struct c2c_pair_config config = pair_config(run, pair, v);

		show(context, run, &config, true, 0, 1);
		ret = c2c_measure_kernel(context, run->client,
					 run->max_irqoff_ns, &config, error);
		run->done_ns += run->schedule.share_ns;
	}
	return ret;
}

/*
 * The variants' rounds, interleaved: round after round, each variant
 * once in an order drawn from --seed and the round, so that a slow
 * stretch of the machine (its vCPUs moved, say) falls on both variants
 * and into their intervals.  What the rounds took is kept when one
 * fails or the run is interrupted.
 */
static int measure_pair_user(struct cp_area_context *context,
			     struct c2c_run *run,
			     const struct cp_cpu_pair *pair,
			     struct cp_error *error)
{
	struct c2c_pair_config configs[CP_C2C_NR_VARIANTS];
	struct c2c_user_rounds rounds[CP_C2C_NR_VARIANTS];
	size_t order[CP_C2C_NR_VARIANTS];
	unsigned int most = 0, started = 0;
	struct cp_error unreported;
	int ret = 0, kept;

	for (int v = 0; v < CP_C2C_NR_VARIANTS && !ret; v++) {
		configs[v] = pair_config(run, pair, v);
		show(context, run, &configs[v], false, 0, 1);
		ret = c2c_user_start(context, run->pinger, &configs[v],
				     &rounds[v], error);
		if (ret)
			break;
		started++;
		if (rounds[v].plan.rounds > most)
			most = rounds[v].plan.rounds;
	}
	for (unsigned int r = 0; r < most && !ret; r++) {
		if (r && (ret = cp_turn_pass()))
			break;
		cp_rounds_order_in(order, CP_C2C_NR_VARIANTS,
				   context->options->seed, r);
		for (size_t k = 0; k < CP_C2C_NR_VARIANTS && !ret; k++) {
			struct c2c_user_rounds *variant = &rounds[order[k]];

			if (r >= variant->plan.rounds)
				continue;
			show(context, run, &configs[order[k]], false, r,
			     variant->plan.rounds);
			ret = c2c_user_round(context, run->pinger,
					     &configs[order[k]], variant, error);
			run->done_ns += run->schedule.share_ns /
					variant->plan.rounds;
			if (!ret && cp_interrupt_requested())
				ret = -EINTR;
		}
	}
	for (unsigned int v = 0; v < started; v++) {
		/* After an interrupt or a failure, that is what the run
		 * reports; what the rounds took is kept all the same. */
		kept = c2c_user_finish(context, &configs[v], &rounds[v],
				       ret ? &unreported : error);
		if (!ret)
			ret = kept;
		c2c_user_drop(&rounds[v]);
	}
	return ret;
}

/*
 * Whether pair @i fits the budget of this mode (each mode its equal part
 * of --budget): the pairs of each class come first and are always
 * measured; after them, as many of the rest as the time left holds at
 * the least a pair costs here (its variants at the shortest share, plus
 * what each run took beyond its share so far), spread over the pairs
 * left.  Under emulation a pair costs seconds whatever its share.
 */
static bool pair_fits(struct c2c_run *run, size_t i)
{
	const struct cp_c2c_schedule *schedule = &run->schedule;
	double now = elapsed_ns(run);
	double mode_end = schedule->budget_ns * (run->mode_index + 1) /
			  run->modes;
	double spent = now - run->mode[run->mode_index].start_ns;
	double planned = run->mode[run->mode_index].planned_ns;
	size_t runs = run->mode[run->mode_index].runs;
	double over = runs && spent > planned
			      ? (spent - planned) / (double)runs : 0;
	double pair_ns = CP_C2C_NR_VARIANTS * (over + CP_C2C_MIN_SHARE_NS) +
			 CP_C2C_MOVE_NS;

	if (i < schedule->nr_class_firsts)
		return true;
	return cp_c2c_pair_fits((mode_end - now) / pair_ns,
				schedule->nr_pairs - i, &run->pair_credit);
}

static int run_mode(struct cp_area_context *context, struct c2c_run *run,
		    bool kernel, struct cp_error *error)
{
	int ret = 0;

	if (!kernel) {
		ret = cp_c2c_pinger_start(context->topology, &run->pinger);
		if (ret)
			return cp_error_set(error, -ret,
					    "c2c: cannot start the threads");
	}
	run->pair_credit = 0;
	run->mode[run->mode_index].start_ns = elapsed_ns(run);
	for (size_t i = 0; i < run->schedule.nr_pairs && !ret; i++) {
		double moving = cp_c2c_moves_before(&run->schedule, i) *
				CP_C2C_MOVE_NS;

		if (!pair_fits(run, i)) {
			run->mode[run->mode_index].skipped++;
			run->runs_left -= CP_C2C_NR_VARIANTS;
			run->done_ns += run->schedule.share_ns *
					CP_C2C_NR_VARIANTS;
			continue;
		}
		run->done_ns += moving;
		run->planned_ns += moving;
		run->mode[run->mode_index].planned_ns += moving;
		run->mode[run->mode_index].measured++;
		ret = kernel ? measure_pair_kernel(context, run,
						   &run->schedule.pairs[i],
						   error)
			     : measure_pair_user(context, run,
						 &run->schedule.pairs[i],
						 error);
		if (!ret && cp_interrupt_requested())
			ret = -EINTR;
	}
	cp_c2c_pinger_stop(run->pinger);
	run->pinger = NULL;
	run->mode[run->mode_index].took_ns =
		elapsed_ns(run) - run->mode[run->mode_index].start_ns;
	return ret;
}

/* Pairs left out of a mode for the budget: how many, and what would have
 * held them all at what a pair cost here. */
static void note_skipped(struct cp_area_context *context,
			 const struct c2c_run *run, unsigned int mode,
			 const char *name)
{
	size_t measured = run->mode[mode].measured;
	size_t skipped = run->mode[mode].skipped;
	double per_pair = measured ? run->mode[mode].took_ns /
					     (double)measured : 0;
	/* What the mode had: its part of the budget from where it began
	 * (a mode after another has what that one left or overran). */
	double allotted = run->schedule.budget_ns * (mode + 1) / run->modes -
			  run->mode[mode].start_ns;

	if (!skipped)
		return;
	cp_results_note(context->results, "c2c",
			"%s mode measured %zu of %zu pairs, every pair class at least once: its %.1f s of the --budget held no more at %.0f ms a pair; about %.0f s would measure them all",
			name, measured, measured + skipped,
			(allotted > 0 ? allotted : 0) / 1e9,
			per_pair / 1e6,
			per_pair * (double)run->schedule.nr_pairs / 1e9 + 1);
}

/*
 * The time the pairs took against the budget, always: a script can hold
 * the run to its promise.  Past 10 % over, why: the pairs of each class
 * are measured whatever the budget, and their fixed cost alone (moving
 * threads, starting a measurement; large under emulation) was more than
 * it left them.
 */
static void note_time(struct cp_area_context *context,
		      const struct c2c_run *run)
{
	double took = elapsed_ns(run);
	double budget = run->schedule.budget_ns;
	size_t runs = run->runs_done;

	if (took <= 1.1 * budget || !runs) {
		cp_results_note(context->results, "c2c",
				"the pairs took %.1f s of the %.1f s budget",
				took / 1e9, budget / 1e9);
		return;
	}
	cp_results_note(context->results, "c2c",
			"the pairs took %.1f s of the %.1f s budget: one pair of each class is measured whatever the budget, and each pair and variant cost %.0f ms besides its share; give a larger --budget or fewer --cpus",
			took / 1e9, budget / 1e9,
			(took - run->planned_ns) / (double)runs / 1e6);
}

static int run_c2c(struct cp_area_context *context, struct cp_error *error)
{
	const struct cp_area_options *options = context->options;
	const struct cp_c2c_choices *choices =
		cp_area_choices(options, &cp_area_c2c);
	struct c2c_run run = {
		.home = choices ? choices->home : CP_C2C_HOME_FIRST,
		.samples_asked = options->samples_asked,
		.sample_cost_ns = -1,
	};
	bool user_wanted = options->mode != CP_AREA_MODE_KERNEL;
	int ret = open_module(options, &run, error);

	if (!ret)
		ret = plan(options, context->topology,
			   modes_of(options, run.client != NULL), &run.schedule,
			   error);
	if (ret) {
		if (run.client)
			cp_client_close(run.client);
		return ret;
	}
	run.total_ns = run.schedule.estimate_ns;
	run.runs_left = run.schedule.nr_pairs * run.schedule.variants;
	run.modes = (user_wanted ? 1 : 0) + (run.client ? 1 : 0);
	if (!run.modes)
		run.modes = 1;
	run.start_ns = cp_clock_monotonic_ns();
	run.waited_at_start_ns = cp_turn_waited_ns();
	if (user_wanted)
		ret = run_mode(context, &run, false, error);
	run.mode_index = user_wanted ? 1 : 0;
	if (run.client && !ret)
		ret = run_mode(context, &run, true, error);
	if (!ret) {
		if (user_wanted)
			note_skipped(context, &run, 0, "user");
		if (run.client)
			note_skipped(context, &run, run.mode_index, "kernel");
		note_time(context, &run);
	}
	if (run.client)
		cp_client_close(run.client);
	cp_c2c_schedule_free(&run.schedule);
	return ret;
}

const struct cp_area cp_area_c2c = {
	.name = "c2c",
	.description = "core-to-core latency matrix: cache lines ping-ponged between every pair of CPUs (CAS and flag), per pair class",
	.run = run_c2c,
	.check = check_c2c,
	.min_cpus = 2,
	.print = cli_print_c2c,
	.report = &report_c2c,
	.options = cp_c2c_options,
	.choices_size = sizeof(struct cp_c2c_choices),
};
