// SPDX-License-Identifier: GPL-2.0
/*
 * cacheprobe-run [run] [AREA...]: measure, report, write result files.
 * cacheprobe-run bench: the same for the latency area, with the instrument
 * itself measured and shown first (timer, core clock, NOTHING floor).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "areas/area.h"
#include "cli/cli_util.h"
#include "areas/c2c/c2c_choices.h"
#include "areas/c2c/c2c_table.h"
#include "areas/latency/latency_choices.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/run_cpu_needs.h"
#include "cli/run_default.h"
#include "cli/results_table.h"
#include "cli/summary_table.h"
#include "cli/run_options.h"
#include "cli/run_turns.h"
#include "cli/run_outputs.h"
#include "client/client.h"
#include "machine/cpu_select.h"
#include "harness/harness_results.h"
#include "harness/rounds.h"
#include "harness/interrupt.h"
#include "machine/tune.h"
#include "machine/placement.h"
#include "areas/c2c/c2c_round_trip.h"

struct run_session {
	const char *command;
	struct run_options options;
	struct run_outputs outputs;
	struct cp_topology *topology;
	struct cp_cpuset *cpus;
	struct cp_clock clock;
	struct cp_harness harness;
	struct cp_results results;
	struct cli_progress progress;
	struct run_left_out left_out;	/* areas of the default run */
};

/* The tuned state, for the atexit handler: restored however we leave. */
static struct cp_tune_state tune_state;
static bool tune_active;

static void restore_tuning(void)
{
	if (!tune_active)
		return;
	tune_active = false;
	if (cp_tune_restore(&tune_state))
		fprintf(stderr,
			"%s: --tune: could not restore every CPU frequency setting\n",
			CLI_PROGRAM);
}

static int list_areas(void)
{
	for (size_t i = 0; i < cp_nr_areas; i++)
		cli_print_line(stdout, 11, "%-10s %s", cp_areas[i]->name,
			       cp_areas[i]->description);
	return CLI_EXIT_OK;
}

static int load_topology(struct run_session *session)
{
	struct cp_error error;
	char why[256];
	int ret = cp_topology_load(NULL, &session->topology, &error);

	if (ret) {
		cli_report_error(session->command, &error);
		return CLI_EXIT_FAILURE;
	}
	if (!session->options.cpus_text)
		return CLI_PROCEED;
	ret = cp_cpu_select(session->topology, session->options.cpus_text,
			    false, &session->cpus, why, sizeof(why));
	if (ret == -ENOMEM) {
		fprintf(stderr, "%s: %s: out of memory\n", CLI_PROGRAM,
			session->command);
		return CLI_EXIT_FAILURE;
	}
	if (ret)
		return cli_usage_error(session->command, "--cpus '%s': %s",
				       session->options.cpus_text, why);
	return CLI_PROCEED;
}

/* Where --tune finds sys/devices/system/cpu: "/" (NULL), or for tests a
 * fake tree named by CACHEPROBE_TUNE_ROOT, so that the restore on every
 * exit path can be checked without retuning the test machine. */
static const char *tune_root(void)
{
	const char *root = getenv("CACHEPROBE_TUNE_ROOT");

	return root && *root ? root : NULL;
}

static int apply_tuning(struct run_session *session)
{
	struct cp_error error;

	if (!session->options.tune)
		return CLI_PROCEED;
	if (cp_tune_apply(&tune_state, tune_root(), &error)) {
		cli_report_error(session->command, &error);
		return CLI_EXIT_FAILURE;
	}
	tune_active = true;
	atexit(restore_tuning);
	if (!tune_state.governor_controllable && !session->options.quiet)
		fprintf(stderr,
			"%s: --tune: this machine exposes no CPU frequency governor; nothing to set\n",
			CLI_PROGRAM);
	if (!tune_state.boost_controllable && !session->options.quiet)
		fprintf(stderr,
			"%s: --tune: turbo boost cannot be controlled here\n",
			CLI_PROGRAM);
	return CLI_PROCEED;
}

/* The module's TSC rate and version, when it is loaded. */
static uint32_t query_module(struct run_session *session)
{
	struct cp_environment *env = &session->results.environment;
	struct cp_client *client;
	struct cp_module_info info;
	struct cp_error error;
	uint32_t tsc_khz = 0;

	if (cp_client_open(session->options.transport, &client, &error))
		return 0;
	if (!cp_client_info(client, &info, &error)) {
		cp_environment_note_module(env, &info);
		tsc_khz = info.tsc_khz;
		cp_module_info_free(&info);
	}
	cp_client_close(client);
	return tsc_khz;
}

static int prepare_measuring(struct run_session *session)
{
	struct cp_results *results = &session->results;
	struct cp_environment *env = &results->environment;
	struct cp_harness_config config = {
		.samples = session->options.samples,
		.target_sample_ns = session->options.sample_time_ns,
		.fixed_count = session->options.fixed_count,
		.rounds = session->options.rounds,
	};
	uint32_t tsc_khz;
	int ret;

	cp_results_init(results);
	snprintf(results->tool_version, sizeof(results->tool_version), "%s",
		 CACHEPROBE_VERSION);
	for (size_t i = 0; i < session->left_out.nr; i++)
		cp_results_skip_area(results, session->left_out.areas[i].name,
				     session->left_out.areas[i].reason);
	cp_environment_capture(NULL, env);
	tsc_khz = query_module(session);
	cp_clock_init(&session->clock, tsc_khz);
	cp_environment_note_clock(env, &session->clock);
	results->timer_overhead_ticks = session->clock.overhead_ticks;
	results->timer_granularity_ticks = session->clock.granularity_ticks;
	results->samples_requested = config.samples;
	results->target_sample_ns = config.target_sample_ns;
	if (!session->options.quiet)
		cli_print_environment_warnings(&session->results.environment);
	ret = cp_harness_init(&session->harness, &session->clock, &config);
	results->nothing_ticks_per_iteration =
		session->harness.nothing_ticks_per_iteration;
	return ret;
}

/* The residue of NOTHING once its own floor is subtracted: what the
 * subtraction leaves as noise around zero. */
static int measure_nothing_residue(struct run_session *session,
				   struct cp_measurement **out)
{
	const struct cp_benchmark nothing = {
		.body = cp_nothing_body, .scale = 1, .prime_count = 1000,
	};
	struct cp_samples samples;
	struct cp_measurement *m;
	int ret = cp_harness_measure(&session->harness, &nothing, &samples);

	if (ret)
		return ret;
	m = cp_results_add(&session->results);
	if (!m) {
		cp_samples_free(&samples);
		return -ENOMEM;
	}
	snprintf(m->area, sizeof(m->area), "harness");
	snprintf(m->name, sizeof(m->name), "NOTHING after subtraction");
	ret = cp_measurement_take_samples(m, &samples, 1,
					  session->clock.tsc_hz);
	*out = m;
	return ret;
}

static int bench_instrument(struct run_session *session, bool show)
{
	const struct cp_clock *clock = &session->clock;
	double ratio = cp_clock_core_cycles_per_tick();
	struct cp_measurement *residue;

	int ret = measure_nothing_residue(session, &residue);

	if (ret)
		return ret;
	if (!show)
		return 0;
	printf("instrument\n");
	printf("  TSC: %.4f GHz (%s), %s\n", clock->tsc_hz / 1e9,
	       session->results.environment.tsc_source,
	       clock->tsc_invariant ? "invariant" : "NOT invariant");
	printf("  timer overhead (start+stop back to back): %.0f ticks = %.1f ns\n",
	       clock->overhead_ticks, cp_ticks_to_ns(clock, clock->overhead_ticks));
	printf("  timer granularity (smallest step): %.0f ticks = %.1f ns\n",
	       clock->granularity_ticks,
	       cp_ticks_to_ns(clock, clock->granularity_ticks));
	printf("  core clock: %.3f cycles per TSC tick = %.3f GHz (dependent add chain)\n",
	       ratio, ratio * clock->tsc_hz / 1e9);
	printf("  NOTHING floor: %.3f ticks = %.3f ns per iteration (subtracted)\n",
	       session->harness.nothing_ticks_per_iteration,
	       cp_ticks_to_ns(clock, session->harness.nothing_ticks_per_iteration));
	printf("  NOTHING after subtraction: median %.4f ticks per iteration, p5 %.4f, p95 %.4f\n\n",
	       residue->stats_ns.median * clock->tsc_hz / 1e9,
	       residue->stats_ns.p5 * clock->tsc_hz / 1e9,
	       residue->stats_ns.p95 * clock->tsc_hz / 1e9);
	return 0;
}

static struct cp_area_options area_options_of(const struct run_session *session)
{
	return (struct cp_area_options){
		.min_size_bytes = session->options.min_size,
		.max_size_bytes = session->options.max_size,
		.default_max_cap_bytes = session->options.default_max_cap,
		.cpus = session->cpus,
		.seed = session->options.seed,
		.samples_asked = session->options.samples_chosen
					 ? session->options.samples : 0,
		.sample_time_chosen = session->options.sample_time_chosen,
		.mode = session->options.mode,
		.transport = session->options.transport,
		/* void *[] to const void *const *: C converts one level only. */
		.choices = (const void *const *)session->options.choices,
	};
}

/* Every chosen area accepts the options, before anything is measured. */
static int check_areas(const struct run_session *session)
{
	struct cp_area_options area_options = area_options_of(session);
	struct cp_error error;

	for (size_t i = 0; i < session->options.nr_areas; i++) {
		const struct cp_area *area = session->options.areas[i];

		if (area->check &&
		    area->check(&area_options, session->topology, &error))
			return cli_usage_error(session->command, "%s",
					       error.msg);
	}
	return CLI_PROCEED;
}

/* The results are partial: the first reason is the one kept. */
static void mark_interrupted(struct cp_results *results, const char *why)
{
	if (!results->interrupted_reason[0])
		snprintf(results->interrupted_reason,
			 sizeof(results->interrupted_reason), "%s", why);
	results->interrupted = true;
}

/* Area @turn's failure, if it failed, into the run's status.  Not when
 * the run had been asked to stop by then (an area stopped midway may
 * fail in its own way): the signal's name is the run's reason. */
static void judge_turn(struct run_session *session, struct run_turn *turn,
		       size_t measured, int *status)
{
	if (!turn->ret || turn->ret == -EINTR || turn->stopped)
		return;
	cli_report_error(session->command, &turn->error);
	/* Input refused before the area measured anything is misuse;
	 * refused after (a CPU taken offline during the run) it is a
	 * failure, and what was measured is kept. */
	*status = measured ? CLI_EXIT_FAILURE
			   : cli_exit_status_for(turn->error.err);
	mark_interrupted(&session->results, turn->error.msg);
}

static int run_areas(struct run_session *session)
{
	struct cp_area_options area_options = area_options_of(session);
	struct cp_area_context context = {
		.clock = &session->clock, .harness = &session->harness,
		.topology = session->topology, .options = &area_options,
		.results = &session->results,
		.progress = cli_progress_update,
		.progress_data = &session->progress,
	};
	size_t n = session->options.nr_areas;
	struct run_turn *turns = calloc(n ? n : 1, sizeof(*turns));
	int status = CLI_EXIT_OK;

	if (!turns) {
		fprintf(stderr, "%s: %s: no memory for the areas\n",
			CLI_PROGRAM, session->command);
		return CLI_EXIT_FAILURE;
	}
	for (size_t i = 0; i < n; i++)
		turns[i].area = session->options.areas[i];
	run_turns(turns, n, &context, &session->progress);
	for (size_t i = 0; i < n; i++) {
		size_t measured = turns[i].results.nr_measurements;

		if (run_turn_merge(&session->results, &turns[i])) {
			fprintf(stderr, "%s: %s: %s: no memory for its results\n",
				CLI_PROGRAM, session->command,
				turns[i].area->name);
			status = CLI_EXIT_FAILURE;
			mark_interrupted(&session->results, "no memory");
		}
		judge_turn(session, &turns[i], measured, &status);
	}
	free(turns);
	return status;
}

/*
 * The round trip between the run's first two CPUs into reading @at of
 * the environment's placement probe (0: start, 1: end).  Not asked for
 * by the user and not a figure of the run: where it cannot be taken (one
 * CPU, a CPU the threads cannot reach, a stop), it is left unmeasured.
 */
static void probe_placement(struct run_session *session, unsigned int at)
{
	struct cp_placement_probe *probe =
		&session->results.environment.placement;
	const struct cp_cpuset *cpus =
		session->cpus ? session->cpus : session->topology->usable;
	int first = cpus ? cp_cpuset_first(cpus) : -1;
	int second = first >= 0 ? cp_cpuset_next(cpus, (unsigned int)first)
				: -1;
	double ns;

	if (second < 0 || (at && !cp_placement_measured(probe)))
		return;
	if (cp_c2c_round_trip_ns(session->topology, (unsigned int)first,
				 (unsigned int)second, &session->clock, &ns))
		return;
	probe->cpus[0] = (unsigned int)first;
	probe->cpus[1] = (unsigned int)second;
	probe->round_trip_ns[at] = ns;
}

/* Measure what can be measured: -EINTR (results kept) or another -errno. */
static int measure(struct run_session *session, bool show, int *status)
{
	int ret = prepare_measuring(session);

	if (ret) {
		if (ret != -EINTR)
			fprintf(stderr, "%s: %s: cannot measure the NOTHING floor\n",
				CLI_PROGRAM, session->command);
		return ret;
	}
	if (session->options.bench) {
		ret = bench_instrument(session, show);
		if (ret)
			return ret;
	}
	probe_placement(session, 0);
	*status = run_areas(session);
	if (!cp_interrupt_requested())
		probe_placement(session, 1);
	return 0;
}

/*
 * The summary first; then every table, or on a terminal (where a person
 * reads the screen, not a file) unless --verbose, one line per area.
 */
static void print_console(const struct run_options *options,
			  const struct cp_results *results)
{
	cli_print_summary(stdout, results);
	if (!options->verbose && isatty(STDOUT_FILENO)) {
		cli_print_area_lines(stdout, results);
		return;
	}
	cli_print_results(stdout, results);
}

static int measure_and_report(struct run_session *session)
{
	const struct run_options *options = &session->options;
	const struct cp_c2c_choices *c2c =
		run_options_choices(options, &cp_area_c2c);
	bool stdout_taken = run_outputs_to_stdout(RUN_OUTPUT_PATHS(options));
	bool show = !options->quiet && !stdout_taken;
	int status = CLI_EXIT_OK, write_status;
	int ret;

	cli_progress_init(&session->progress, options->quiet);
	ret = measure(session, show, &status);
	if (cp_interrupt_requested()) {
		const char *name = sigabbrev_np(cp_interrupt_signal());
		char why[32];

		snprintf(why, sizeof(why), "SIG%s", name ? name : "?");
		mark_interrupted(&session->results, why);
	} else if (ret) {
		return CLI_EXIT_FAILURE;
	}
	/* An area refused its input: no result file, as for any misuse. */
	if (status == CLI_EXIT_USAGE)
		return status;
	/* Once, whatever was measured before a stop. */
	cp_results_cover_timer_step(&session->results);
	if (show)
		print_console(options, &session->results);
	write_status = run_outputs_write(&session->outputs, session->command,
					 &session->results);
	if (write_status == CLI_EXIT_OK && c2c)
		write_status = cli_write_c2c_matrix(session->command,
						    c2c->matrix_path,
						    &session->results);
	if (cp_interrupt_requested()) {
		fprintf(stderr, "%s: interrupted; partial results kept\n",
			CLI_PROGRAM);
		return 128 + cp_interrupt_signal();
	}
	return status != CLI_EXIT_OK ? status : write_status;
}

static void end_session(struct run_session *session)
{
	restore_tuning();
	cp_interrupt_uninstall();
	run_outputs_abort(&session->outputs);
	cp_results_free(&session->results);
	cp_cpuset_free(session->cpus);
	cp_topology_free(session->topology);
}

static void default_options(struct run_options *options)
{
	memset(options, 0, sizeof(*options));
	options->samples = CP_HARNESS_DEFAULT_SAMPLES;
	options->sample_time_ns = CP_HARNESS_DEFAULT_TARGET_NS;
	options->seed = 1;
	options->rounds = CP_ROUNDS_DEFAULT;
	options->transport = CP_TRANSPORT_AUTO;
}

/* With the command line read. */
static int run_session(struct run_session *session)
{
	const char *command = session->command;
	bool named;
	int status;

	session->options.bench = strcmp(command, "bench") == 0;
	if (session->options.bench && session->options.nr_areas)
		return cli_usage_error(command,
				       "takes no area (it runs latency)");
	if (session->options.bench) {
		session->options.areas[0] = &cp_area_latency;
		session->options.nr_areas = 1;
	}
	if (session->options.list)
		return list_areas();
	named = session->options.nr_areas != 0;
	if (!named)
		run_default_apply(&session->options);
	status = run_outputs_open(&session->outputs, command,
				  RUN_OUTPUT_PATHS(&session->options));
	if (!session->options.quiet)
		session->outputs.announce =
			run_outputs_to_stdout(
				RUN_OUTPUT_PATHS(&session->options))
				? stderr : stdout;
	if (status == CLI_PROCEED)
		status = load_topology(session);
	if (status == CLI_PROCEED)
		status = run_fit_areas(&session->options, named,
				       session->topology, command,
				       &session->left_out);
	if (status == CLI_PROCEED)
		status = check_areas(session);
	if (status == CLI_PROCEED && cp_interrupt_install())
		status = CLI_EXIT_FAILURE;
	if (status == CLI_PROCEED)
		status = apply_tuning(session);
	if (status == CLI_PROCEED)
		status = measure_and_report(session);
	end_session(session);
	return status;
}

static int run_command(int argc, char **argv, const char *command)
{
	struct run_session session = { .command = command };
	int status;

	default_options(&session.options);
	status = run_parse_options(argc, argv, command, &session.options);
	if (status == CLI_PROCEED)
		status = run_session(&session);
	run_options_free_choices(&session.options);
	return status;
}

int cmd_run(int argc, char **argv)
{
	return run_command(argc, argv, "run");
}

int cmd_bench(int argc, char **argv)
{
	return run_command(argc, argv, "bench");
}
