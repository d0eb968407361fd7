// SPDX-License-Identifier: GPL-2.0
/*
 * The c2c pinger on this machine's first two CPUs: a job runs all its
 * samples; a job whose deadline has passed ends after its least samples
 * with those valid, not as an interruption; the next job runs whole.  Its
 * workers block the stop signals, and the thread that started them
 * does not.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "areas/c2c/c2c_pingpong.h"
#include "harness/clock.h"
#include "machine/topology.h"

static void run(struct cp_c2c_pinger *pinger, const struct cp_c2c_job *job,
		unsigned int *taken, uint64_t *ticks)
{
	struct cp_c2c_placement placement;
	unsigned int failed_cpu = 0;

	assert_int_equal(cp_c2c_pinger_run(pinger, job, ticks, NULL,
					   &placement, taken, &failed_cpu,
					   NULL),
			 0);
}

static void test_deadline_ends_a_job(void **state)
{
	struct cp_topology *topology = NULL;
	struct cp_c2c_pinger *pinger;
	struct cp_c2c_job job = {
		.initiator = 0, .responder = 1, .variant = CP_C2C_CAS,
		.round_trips = 64, .samples = 200,
	};
	uint64_t ticks[200] = { 0 };
	struct cp_error error;
	unsigned int taken = 0;

	(void)state;
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		skip();
	assert_int_equal(cp_topology_load(NULL, &topology, &error), 0);
	assert_int_equal(cp_c2c_pinger_start(topology, &pinger), 0);
	run(pinger, &job, &taken, ticks);
	assert_int_equal(taken, 200);
	/* Long past: the job stops once it has its least. */
	job.deadline_tsc = 1;
	job.least = 5;
	job.variant = CP_C2C_FLAG;
	run(pinger, &job, &taken, ticks);
	assert_int_equal(taken, 5);
	for (unsigned int i = 0; i < taken; i++)
		assert_true(ticks[i] > 0);
	/* Far off: every sample. */
	job.deadline_tsc = cp_clock_stop() + (1ull << 60);
	run(pinger, &job, &taken, ticks);
	assert_int_equal(taken, 200);
	cp_c2c_pinger_stop(pinger);
	cp_topology_free(topology);
}

/* Whether task @tid of this process blocks @signal (its SigBlk). */
static bool blocks(const char *tid, int signal)
{
	char path[64], line[128];
	bool blocked = false;
	FILE *status;

	snprintf(path, sizeof(path), "/proc/self/task/%s/status", tid);
	status = fopen(path, "r");
	if (!status)
		return false;
	while (fgets(line, sizeof(line), status))
		if (strncmp(line, "SigBlk:", 7) == 0)
			blocked = (strtoull(line + 7, NULL, 16) >>
				   (signal - 1)) & 1;
	fclose(status);
	return blocked;
}

/* A stop signal must reach the thread that runs the jobs, not a worker
 * sleeping through other areas' turns: the workers are born blocking
 * them (no moment in which one could take a signal first), and the
 * starting thread's own mask is as it was. */
static void test_workers_block_stop_signals(void **state)
{
	struct cp_topology *topology = NULL;
	struct cp_c2c_pinger *pinger;
	struct cp_error error;
	unsigned int workers = 0;
	char self[32];
	struct dirent *task;
	DIR *tasks;

	(void)state;
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		skip();
	assert_int_equal(cp_topology_load(NULL, &topology, &error), 0);
	assert_int_equal(cp_c2c_pinger_start(topology, &pinger), 0);
	snprintf(self, sizeof(self), "%d", (int)gettid());
	assert_false(blocks(self, SIGTERM));
	tasks = opendir("/proc/self/task");
	assert_non_null(tasks);
	while ((task = readdir(tasks)))
		if (task->d_name[0] != '.' && strcmp(task->d_name, self) &&
		    blocks(task->d_name, SIGTERM) &&
		    blocks(task->d_name, SIGINT))
			workers++;
	closedir(tasks);
	cp_c2c_pinger_stop(pinger);
	cp_topology_free(topology);
	assert_int_equal(workers, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deadline_ends_a_job),
		cmocka_unit_test(test_workers_block_stop_signals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
