/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The time-stamp counter as a measuring clock.
 *
 * TSC ticks are reference cycles at a fixed rate, not core cycles: a core
 * running above the TSC rate executes more than one cycle per tick.  So the
 * clock knows three things separately: the TSC rate (ticks per ns, from the
 * module or calibrated against CLOCK_MONOTONIC_RAW), the timer's own cost
 * and granularity (measured), and, on request, the core clock relative to
 * the TSC (measured with a chain of dependent single-cycle adds).
 */
#ifndef CACHEPROBE_CLOCK_H
#define CACHEPROBE_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* Start of a timed region: earlier instructions retire before the read,
 * later ones do not start before it (lfence; rdtsc; lfence). */
static inline uint64_t cp_clock_start(void)
{
	uint32_t low, high;

	__asm__ __volatile__("lfence\n\trdtsc\n\tlfence"
			     : "=a"(low), "=d"(high) : : "memory");
	return ((uint64_t)high << 32) | low;
}

/* Whether this CPU has RDTSCP (CPUID 80000001h EDX bit 27); set before
 * main() runs, so every timed region can rely on it. */
extern bool cp_clock_has_rdtscp;

/* End of a timed region: rdtscp waits for the region's instructions; the
 * lfence keeps what follows out of it.  CPUs without RDTSCP (older ones,
 * and some virtual CPU models) get lfence; rdtsc; lfence, which orders the
 * same way at the cost of one more fence; the branch is always predicted. */
static inline uint64_t cp_clock_stop(void)
{
	uint32_t low, high, aux;

	if (__builtin_expect(!cp_clock_has_rdtscp, 0)) {
		__asm__ __volatile__("lfence\n\trdtsc\n\tlfence"
				     : "=a"(low), "=d"(high) : : "memory");
		return ((uint64_t)high << 32) | low;
	}
	__asm__ __volatile__("rdtscp\n\tlfence"
			     : "=a"(low), "=d"(high), "=c"(aux) : : "memory");
	return ((uint64_t)high << 32) | low;
}

enum cp_tsc_source {
	CP_TSC_FROM_MODULE,	/* the kernel's tsc_khz via cacheprobe.ko */
	CP_TSC_CALIBRATED,	/* against CLOCK_MONOTONIC_RAW, here */
};

struct cp_clock {
	double tsc_hz;
	enum cp_tsc_source source;
	bool tsc_invariant;		/* CPUID 80000007h EDX bit 8 */
	double overhead_ticks;		/* median of start;stop back to back */
	double granularity_ticks;	/* smallest nonzero step seen */
};

/* CLOCK_MONOTONIC in ns: wall time for budgets, not for samples. */
double cp_clock_monotonic_ns(void);

/* Ticks per second measured against CLOCK_MONOTONIC_RAW over
 * @duration_ms, in whole kHz as the kernel keeps it. */
double cp_clock_calibrate_tsc_hz(unsigned int duration_ms);

/* Whether the CPU declares an invariant TSC. */
bool cp_clock_tsc_invariant(void);

/*
 * Fill @clock: the TSC rate is @module_tsc_khz when non-zero, calibrated
 * otherwise; overhead and granularity are measured.
 */
void cp_clock_init(struct cp_clock *clock, uint32_t module_tsc_khz);

static inline double cp_ticks_to_ns(const struct cp_clock *clock,
				    double ticks)
{
	return ticks * 1e9 / clock->tsc_hz;
}

/*
 * Core cycles per TSC tick, measured now on the calling CPU with a chain
 * of dependent adds (one cycle each on every x86 core of the last two
 * decades).  Run it next to a measurement: the core clock moves.
 */
double cp_clock_core_cycles_per_tick(void);

#endif
