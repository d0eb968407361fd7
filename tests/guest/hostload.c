// SPDX-License-Identifier: GPL-2.0
/*
 * Host load for the loaded guest stage (run-loaded.sh): one thread pinned
 * to each host CPU it may use, passing a token around a ring on one cache
 * line, spinning, until killed.  This is the load that starved a
 * multi-threaded TCG guest's vCPUs in turn (plain unpinned busy loops did
 * not): each host CPU is always busy, and the thread on it only gives way
 * when the scheduler takes it off.
 *
 * Usage: hostload [SECONDS]   (default: until killed)
 * Prints the token's laps on exit after SECONDS, so a run shows the load
 * really ran.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_THREADS 1024

static _Alignas(64) atomic_long token;

struct spinner {
	pthread_t thread;
	int cpu;
	long turn;
	long threads;
};

static void *spin(void *arg)
{
	struct spinner *s = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(s->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		fprintf(stderr, "hostload: cannot pin to CPU %d\n", s->cpu);
	for (;;) {
		long v = atomic_load_explicit(&token, memory_order_acquire);

		if (v % s->threads == s->turn)
			atomic_store_explicit(&token, v + 1,
					      memory_order_release);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static struct spinner spinners[MAX_THREADS];
	long seconds = 0, n = 0;
	cpu_set_t allowed;
	char *end;

	if (argc == 2)
		seconds = strtol(argv[1], &end, 10);
	if (argc > 2 || (argc == 2 && (seconds <= 0 || *end))) {
		fprintf(stderr, "usage: hostload [SECONDS]\n");
		return 2;
	}
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		perror("hostload: sched_getaffinity");
		return 1;
	}
	for (int cpu = 0; cpu < CPU_SETSIZE && n < MAX_THREADS; cpu++)
		if (CPU_ISSET(cpu, &allowed))
			spinners[n++].cpu = cpu;
	for (long i = 0; i < n; i++) {
		spinners[i].turn = i;
		spinners[i].threads = n;
		if (pthread_create(&spinners[i].thread, NULL, spin,
				   &spinners[i])) {
			fprintf(stderr, "hostload: cannot start thread %ld\n",
				i);
			return 1;
		}
	}
	if (!seconds)
		for (;;)
			pause();
	sleep((unsigned int)seconds);
	printf("%ld threads, %ld laps of the token\n", n,
	       atomic_load(&token) / n);
	return 0;
}
