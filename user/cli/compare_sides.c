// SPDX-License-Identifier: GPL-2.0
#include "cli/compare_sides.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli_util.h"
#include "results/results_json.h"
#include "results/results_pool.h"

#define COMMAND "compare"

static int fail(struct compare_side *side, int status, const char *text)
{
	snprintf(side->message, sizeof(side->message), "%s", text);
	return status;
}

/* A run read and indexed: CLI_PROCEED, or an exit with the message. */
static int load_run(struct compare_side *side, const char *path,
		    struct cp_results *results, struct cp_results_index *index)
{
	const struct cp_measurement *first, *second;
	struct cp_error error;
	int ret;

	if (cp_results_read_json_samples(path, results, &error))
		return fail(side, CLI_EXIT_USAGE, error.msg);
	ret = cp_results_index_build(index, results, &first, &second);
	if (!ret)
		return CLI_PROCEED;
	if (ret == -EEXIST)
		snprintf(side->message, sizeof(side->message),
			 "%s: measurements %td and %td are both \"%s: %s\" in mode \"%s\"",
			 path, first - results->measurements,
			 second - results->measurements, first->area,
			 first->name, first->mode);
	else
		snprintf(side->message, sizeof(side->message), "%s: %s", path,
			 strerror(-ret));
	cp_results_index_free(index);
	cp_results_free(results);
	return ret == -EEXIST ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
}

static int load_side(struct compare_side *side)
{
	const struct cp_measurement *first, *second;

	side->runs = calloc(side->nr_paths, sizeof(*side->runs));
	side->indexes = calloc(side->nr_paths, sizeof(*side->indexes));
	if (!side->runs || !side->indexes)
		return fail(side, CLI_EXIT_FAILURE, "out of memory");
	for (size_t i = 0; i < side->nr_paths; i++) {
		int status = load_run(side, side->paths[i], &side->runs[i],
				      &side->indexes[i]);

		if (status != CLI_PROCEED)
			return status;
		side->nr_loaded++;
	}
	if (side->nr_paths == 1)
		return CLI_PROCEED;
	if (cp_results_pool(side->runs, side->indexes, side->nr_paths,
			    &side->pooled, &side->nr_partial))
		return fail(side, CLI_EXIT_FAILURE, "out of memory");
	side->is_pooled = true;
	/* Pooled from indexed runs: no identity can repeat. */
	if (cp_results_index_build(&side->pooled_index, &side->pooled, &first,
				   &second))
		return fail(side, CLI_EXIT_FAILURE, "out of memory");
	return CLI_PROCEED;
}

static void *load_side_thread(void *side)
{
	((struct compare_side *)side)->status = load_side(side);
	return NULL;
}

/* A run named twice on one side would count its samples twice. */
static int check_distinct(const struct compare_side *side)
{
	for (size_t i = 0; i < side->nr_paths; i++) {
		struct stat a, b;

		if (stat(side->paths[i], &a))
			continue;
		for (size_t j = 0; j < i; j++)
			if (!stat(side->paths[j], &b) && a.st_dev == b.st_dev &&
			    a.st_ino == b.st_ino)
				return cli_usage_error(COMMAND,
						       "'%s' and '%s' are one file: its samples would count twice",
						       side->paths[j],
						       side->paths[i]);
	}
	return CLI_PROCEED;
}

int compare_load_sides(struct compare_side *sides)
{
	pthread_t thread;
	bool threaded;

	for (int i = 0; i < 2; i++) {
		int status = check_distinct(&sides[i]);

		if (status != CLI_PROCEED)
			return status;
	}
	/* Without a thread the new side is read after the baseline. */
	threaded = !pthread_create(&thread, NULL, load_side_thread, &sides[1]);
	sides[0].status = load_side(&sides[0]);
	if (threaded)
		pthread_join(thread, NULL);
	else
		sides[1].status = load_side(&sides[1]);
	for (int i = 0; i < 2; i++) {
		if (sides[i].status == CLI_PROCEED)
			continue;
		fprintf(stderr, "%s: %s: %s\n", CLI_PROGRAM, COMMAND,
			sides[i].message);
		return sides[i].status;
	}
	return CLI_PROCEED;
}

const struct cp_results *compare_side_results(const struct compare_side *side)
{
	return side->is_pooled ? &side->pooled : &side->runs[0];
}

const struct cp_results_index *
compare_side_index(const struct compare_side *side)
{
	return side->is_pooled ? &side->pooled_index : &side->indexes[0];
}

void compare_side_free(struct compare_side *side)
{
	for (size_t i = 0; i < side->nr_loaded; i++) {
		cp_results_index_free(&side->indexes[i]);
		cp_results_free(&side->runs[i]);
	}
	if (side->is_pooled) {
		cp_results_index_free(&side->pooled_index);
		cp_results_free(&side->pooled);
	}
	free(side->runs);
	free(side->indexes);
	side->runs = NULL;
	side->indexes = NULL;
	side->nr_loaded = 0;
	side->is_pooled = false;
}
