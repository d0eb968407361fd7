// SPDX-License-Identifier: GPL-2.0
/*
 * The c2c pinger on this machine's first two CPUs: a job runs all its
 * samples; a job whose deadline has passed ends after its least samples
 * with those valid, not as an interruption; the next job runs whole.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deadline_ends_a_job),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
