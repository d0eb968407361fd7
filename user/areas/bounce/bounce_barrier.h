/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A spinning barrier for threads pinned to distinct CPUs, so that they
 * leave it within a cache-line transfer of each other (a sleeping barrier
 * would wake them microseconds apart).  The last thread to arrive runs a
 * hook before it releases the others: decisions every thread must see the
 * same way (keep the run? stop?) are made there, once.
 */
#ifndef CACHEPROBE_BOUNCE_BARRIER_H
#define CACHEPROBE_BOUNCE_BARRIER_H

#include <stdatomic.h>

struct cp_bounce_barrier {
	/* Apart, so arrivals and the release do not share a line. */
	_Alignas(128) atomic_uint arrived;
	_Alignas(128) atomic_uint generation;
	unsigned int parties;
};

void cp_bounce_barrier_init(struct cp_bounce_barrier *barrier,
			    unsigned int parties);

/* Wait for every party; the last one runs @hook(@data) first (may be
 * NULL). */
void cp_bounce_barrier_wait(struct cp_bounce_barrier *barrier,
			    void (*hook)(void *data), void *data);

/* Arrive without waiting (standing in for a party that will never come);
 * the hook runs as in cp_bounce_barrier_wait. */
void cp_bounce_barrier_arrive(struct cp_bounce_barrier *barrier,
			      void (*hook)(void *data), void *data);

#endif
