/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One quick reading of a cache line's round trip between two CPUs, for
 * the run's record of where the host placed them (machine/placement.h):
 * c2c's CAS ping-pong (areas/c2c/c2c_pingpong.h), 3 to 9 samples of 256
 * round trips, none begun after 2 ms once 3 are taken, the quickest
 * sample's.  A reading costs 2 to 4 ms (the pinger's caller looks in
 * every 2 ms), and gives up after 50 ms (under emulation, where
 * a round trip can take a millisecond).  It tells a few tens of ns from
 * a few hundred; c2c's area gives the figure.
 */
#ifndef CACHEPROBE_C2C_ROUND_TRIP_H
#define CACHEPROBE_C2C_ROUND_TRIP_H

#include "harness/clock.h"
#include "machine/topology.h"

/*
 * The round trip between CPUs @a and @b in ns into *@ns: 0; -EINVAL when
 * a thread cannot run on one of them or @clock has no TSC rate; -EINTR
 * when the run was asked to stop; -ETIMEDOUT when it gave up; -EIO when
 * it took too few samples or no reading; -ENOMEM, or another -errno of
 * the threads' start.
 */
int cp_c2c_round_trip_ns(const struct cp_topology *topology, unsigned int a,
			 unsigned int b, const struct cp_clock *clock,
			 double *ns);

#endif
