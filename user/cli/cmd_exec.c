// SPDX-License-Identifier: GPL-2.0
/*
 * cacheprobe-run exec [OPTIONS] -- COMMAND [ARG...]: someone else's
 * program, run cold (caches evicted before each run) and warm, timed, and
 * reported with the statistics of every other measurement, into the same
 * result files.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/exec_eviction.h"
#include "cli/exec_options.h"
#include "cli/exec_results.h"
#include "cli/exec_series.h"
#include "cli/exec_summary.h"
#include "cli/progress.h"
#include "cli/run_outputs.h"
#include "client/client.h"
#include "harness/clock.h"
#include "harness/interrupt.h"

#define COMMAND "exec"

struct exec_session {
	struct exec_options options;
	struct run_outputs outputs;
	bool stdout_taken;		/* a result goes to standard output */
	struct cacheprobe_ctx *ctx;	/* NULL: nothing to evict */
	struct exec_eviction eviction;
	struct exec_series series;
	struct exec_contrast contrast;
	struct cp_results results;
	double tsc_hz;
	struct cli_progress progress;
	char command[sizeof(((struct cp_measurement *)0)->note)];
	char stop_reason[320];
};

static int out_of_memory(void)
{
	fprintf(stderr, "%s: %s: out of memory\n", CLI_PROGRAM, COMMAND);
	return CLI_EXIT_FAILURE;
}

static const char *const *output_paths(const struct exec_session *session,
				       const char *paths[RUN_NR_OUTPUTS])
{
	paths[RUN_OUTPUT_JSON] = session->options.json_path;
	paths[RUN_OUTPUT_CSV] = NULL;
	paths[RUN_OUTPUT_REPORT] = session->options.report_path;
	return paths;
}

/* Opened before anything runs, so that a path that cannot be written
 * fails at once. */
static int open_outputs(struct exec_session *session)
{
	const char *paths[RUN_NR_OUTPUTS];
	int status = run_outputs_open(&session->outputs, COMMAND,
				      output_paths(session, paths));

	session->stdout_taken = run_outputs_to_stdout(paths);
	if (!session->options.quiet)
		session->outputs.announce = session->stdout_taken ? stderr
								  : stdout;
	return status;
}

/* The module's version and TSC rate, when it is loaded. */
static uint32_t note_module(struct cp_environment *env)
{
	struct cp_client *client;
	struct cp_module_info info;
	struct cp_error error;
	uint32_t tsc_khz = 0;

	if (cp_client_open(CP_TRANSPORT_AUTO, &client, &error))
		return 0;
	if (!cp_client_info(client, &info, &error)) {
		cp_environment_note_module(env, &info);
		tsc_khz = info.tsc_khz;
		cp_module_info_free(&info);
	}
	cp_client_close(client);
	return tsc_khz;
}

/*
 * The machine's conditions, and the TSC rate that turns the runs' ns into
 * the ticks the schema also keeps: the kernel's through the module, else
 * calibrated (50 ms), which only a result file needs.
 */
static void note_conditions(struct exec_session *session)
{
	struct cp_environment *env = &session->results.environment;
	bool files = session->options.json_path || session->options.report_path;
	struct cp_clock clock = { .source = CP_TSC_FROM_MODULE };
	uint32_t tsc_khz;

	cp_results_init(&session->results);
	snprintf(session->results.tool_version,
		 sizeof(session->results.tool_version), "%s",
		 CACHEPROBE_VERSION);
	cp_environment_capture(NULL, env);
	tsc_khz = note_module(env);
	clock.tsc_hz = (double)tsc_khz * 1e3;
	if (!tsc_khz && files) {
		clock.source = CP_TSC_CALIBRATED;
		clock.tsc_hz = cp_clock_calibrate_tsc_hz(50);
	}
	clock.tsc_invariant = cp_clock_tsc_invariant();
	cp_environment_note_clock(env, &clock);
	session->tsc_hz = clock.tsc_hz;
}

static int prepare(struct exec_session *session)
{
	const struct exec_options *options = &session->options;
	struct exec_series *series = &session->series;

	/* Started with SIGCHLD ignored (some service managers and CI
	 * runners do that), the kernel would reap the runs itself and
	 * wait4 would fail: each run is ours to reap. */
	signal(SIGCHLD, SIG_DFL);
	exec_command_text(options->argv, session->command,
			  sizeof(session->command));
	if (exec_series_init(series, options->kinds, options->runs))
		return out_of_memory();
	series->argv = options->argv;
	series->stdout_to_stderr = session->stdout_taken;
	cli_progress_init(&session->progress, options->quiet);
	cli_progress_area(&session->progress, COMMAND, 0, 1);
	series->progress = &session->progress;
	series->progress_during_runs = !session->stdout_taken &&
				       !isatty(STDOUT_FILENO);
	note_conditions(session);
	if (!session->options.quiet)
		cli_print_environment_warnings(&session->results.environment);
	if (!(options->kinds & EXEC_COLD))
		return CLI_PROCEED;
	series->evict = exec_eviction_evict;
	return exec_eviction_open(options->method, options->cpus_list,
				  options->factor, &session->ctx,
				  &session->eviction);
}

/* What went wrong in the run the series stopped at, into @how. */
static void describe_stop(const struct exec_session *session, char *how,
			  size_t len)
{
	const struct exec_series *series = &session->series;
	char end[128];

	if (series->stop != EXEC_STOP_COMMAND) {
		snprintf(how, len, "%s", series->why);
		return;
	}
	exec_outcome_describe(&series->outcome, end, sizeof(end));
	snprintf(how, len, "'%s' %s", session->command, end);
}

/* Say why the series stopped early; the exit status that follows. */
static int report_stop(struct exec_session *session)
{
	const struct exec_series *series = &session->series;
	int signal_number = cp_interrupt_signal();
	const char *name;
	char how[256];

	if (series->stop == EXEC_STOP_NONE)
		return CLI_EXIT_OK;
	if (series->stop == EXEC_STOP_SIGNAL) {
		name = sigabbrev_np(signal_number);
		snprintf(session->stop_reason, sizeof(session->stop_reason),
			 "SIG%s", name ? name : "?");
		return 128 + signal_number;
	}
	describe_stop(session, how, sizeof(how));
	snprintf(session->stop_reason, sizeof(session->stop_reason),
		 "run %zu of %zu (%s): %s", series->stopped_at,
		 exec_series_length(series),
		 exec_kind_name(exec_series_kind(series,
						 series->stopped_at - 1)),
		 how);
	fprintf(stderr, "%s: %s: %s; the series stops\n", CLI_PROGRAM,
		COMMAND, session->stop_reason);
	return series->stop == EXEC_STOP_COMMAND
		       ? exec_outcome_status(&series->outcome)
		       : CLI_EXIT_FAILURE;
}

static void show_summary(const struct exec_session *session)
{
	const struct exec_summary summary = {
		.results = &session->results,
		.series = &session->series,
		.command = session->command,
		.eviction = session->ctx ? &session->eviction : NULL,
		.cpus = session->options.cpus_list,
		.contrast = &session->contrast,
		.stop_reason = session->stop_reason,
	};

	if (!session->options.quiet && !session->stdout_taken)
		exec_summary_print(stdout, &summary);
}

/* The figures of the runs measured, shown and written. */
static int report(struct exec_session *session)
{
	int ret = exec_contrast_compute(&session->series, &session->contrast);

	if (!ret)
		ret = exec_results_add(&session->results, &session->series,
				       session->command, &session->eviction,
				       &session->contrast, session->tsc_hz,
				       session->stop_reason);
	if (ret)
		return out_of_memory();
	show_summary(session);
	return run_outputs_write(&session->outputs, COMMAND,
				 &session->results);
}

static int run_series(struct exec_session *session)
{
	int status, write_status = CLI_EXIT_OK;

	session->series.evict_context = session->ctx;
	exec_series_run(&session->series);
	status = report_stop(session);
	/* Nothing measured: no file, rather than one without figures. */
	if (exec_series_measured(&session->series))
		write_status = report(session);
	if (session->series.stop == EXEC_STOP_SIGNAL)
		fprintf(stderr, "%s: interrupted; %s\n", CLI_PROGRAM,
			exec_series_measured(&session->series)
				? "partial results kept" : "nothing measured");
	return status != CLI_EXIT_OK ? status : write_status;
}

static void end_session(struct exec_session *session)
{
	cp_interrupt_uninstall();
	run_outputs_abort(&session->outputs);
	exec_eviction_close(session->ctx);
	exec_series_free(&session->series);
	cp_results_free(&session->results);
	exec_options_free(&session->options);
}

int cmd_exec(int argc, char **argv)
{
	struct exec_session session;
	int status;

	memset(&session, 0, sizeof(session));
	status = exec_parse_options(argc, argv, &session.options);
	if (status == CLI_PROCEED)
		status = open_outputs(&session);
	if (status == CLI_PROCEED)
		status = prepare(&session);
	if (status == CLI_PROCEED && cp_interrupt_install())
		status = CLI_EXIT_FAILURE;
	if (status == CLI_PROCEED)
		status = run_series(&session);
	end_session(&session);
	return status;
}
