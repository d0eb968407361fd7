// SPDX-License-Identifier: GPL-2.0
/* cacheprobe-run: dispatch to a subcommand. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "areas/area.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/run_options.h"
#include "machine/affinity.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "info", cmd_info,
	  "show the module, the machine and its cache topology" },
	{ "flush", cmd_flush,
	  "flush CPU caches with WBINVD/WBNOINVD and time it (needs the module)" },
	{ "run", cmd_run,
	  "measure areas (also without the word: '" CLI_PROGRAM " latency')" },
	{ "compare", cmd_compare,
	  "compare two JSON results; exit 1 on a significant regression" },
	{ "bench", cmd_bench,
	  "measure the instrument: timer, NOTHING floor, latency plateaus" },
	{ "report", cmd_report,
	  "make the HTML report of a saved JSON result" },
	{ "evict", cmd_evict,
	  "evict the caches once, by the method that works here (checked)" },
	{ "exec", cmd_exec,
	  "time a command's runs with the caches cold and warm" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void print_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s COMMAND [OPTIONS]\n"
		"       %s [AREA...] [RUN OPTIONS]   (same as 'run')\n"
		"       %s --help | --version\n"
		"\n"
		"Measure CPU-cache behaviour, with the cacheprobe kernel module\n"
		"where it is loaded.\n"
		"\n"
		"Commands:\n", CLI_PROGRAM, CLI_PROGRAM, CLI_PROGRAM);
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(out, "  %-8s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(out, "\nAreas (see '%s run --list'):\n", CLI_PROGRAM);
	for (size_t i = 0; i < cp_nr_areas; i++)
		fprintf(out, "  %-8s %s\n", cp_areas[i]->name,
			cp_areas[i]->description);
	fprintf(out,
		"\n"
		"Options:\n"
		"  -h, --help     show this help\n"
		"  -V, --version  show the version\n"
		"\n"
		"'%s COMMAND --help' shows a command's options.\n"
		"Exit status: 0 success, 1 an operation failed, 2 wrong usage\n"
		"(including CPUs the module refuses).\n", CLI_PROGRAM);
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static int dispatch(int argc, char **argv)
{
	const struct command *command;
	const char *first = argc > 1 ? argv[1] : NULL;

	/* Nothing named: every area with its defaults. */
	if (!first)
		return cmd_run(argc, argv);
	if (!strcmp(first, "--help") || !strcmp(first, "-h")) {
		print_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (!strcmp(first, "--version") || !strcmp(first, "-V")) {
		printf("%s %s\n", CLI_PROGRAM, CACHEPROBE_VERSION);
		return CLI_EXIT_OK;
	}
	/* An area or a run option first: a run, with argv[0] in place. */
	if (cp_area_find(first) || run_is_option(first))
		return cmd_run(argc, argv);
	if (first[0] == '-')
		return cli_usage_error(NULL, "unknown option '%s'", first);
	command = find_command(first);
	if (!command)
		return cli_usage_error(NULL,
				       "unknown command '%s' (a command, an area or an option must come first)",
				       first);
	return command->run(argc - 1, argv + 1);
}

/*
 * What went to standard output must have arrived: a script that reads the
 * table from a full disk or /dev/full must not see exit 0.  A buffer
 * larger than any table keeps the one write at the end, where its errno
 * (No space left on device) can still be told.
 */
static char stdout_buffer[1 << 20];

static int finish_stdout(int status)
{
	int failed = fflush(stdout) != 0, error = failed ? errno : 0;

	/* An earlier write failed: its errno is gone, whatever errno holds. */
	failed |= ferror(stdout);
	if (fclose(stdout) != 0 && !failed) {
		failed = 1;
		error = errno;
	}
	if (!failed)
		return status;
	fprintf(stderr, "%s: cannot write standard output: %s\n",
		CLI_PROGRAM, error ? strerror(error) : "a write failed");
	return status == CLI_EXIT_OK ? CLI_EXIT_FAILURE : status;
}

int main(int argc, char **argv)
{
	/* Before any thread is pinned: the CPUs runs may choose from are
	 * within this mask.  Should it fail, the topology reads it again. */
	cp_affinity_record();
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, stdout_buffer, _IOFBF, sizeof(stdout_buffer));
	return finish_stdout(dispatch(argc, argv));
}
