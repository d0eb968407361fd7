// SPDX-License-Identifier: GPL-2.0
#include "harness/clock.h"

#include <cpuid.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "stats/stats.h"

bool cp_clock_has_rdtscp = true;

/* Runs before main() and before any test, so cp_clock_stop() is safe from
 * the first timed region on. */
__attribute__((constructor)) static void detect_rdtscp(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (__get_cpuid_max(0x80000000u, NULL) < 0x80000001u) {
		cp_clock_has_rdtscp = false;
		return;
	}
	__cpuid(0x80000001u, eax, ebx, ecx, edx);
	cp_clock_has_rdtscp = (edx >> 27) & 1;
}

#define TIMER_PROBES 2001

static uint64_t monotonic_raw_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC_RAW, &now);
	return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

double cp_clock_monotonic_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec * 1e9 + (double)now.tv_nsec;
}

/* Tries per end of the calibration: the read least disturbed wins. */
#define CALIBRATION_PAIR_TRIES 32

/* A clock read and the TSC at its middle: the bracket's start and half
 * its width apart, as a double cannot hold a TSC value of months of
 * uptime to the tick. */
struct paired_read {
	uint64_t ticks;
	double half_ticks;
	uint64_t ns;
};

/*
 * Of several clock reads, each bracketed by two TSC reads, the one with
 * the narrowest bracket, so an interrupt or a slow read shifts neither
 * end of the calibration.
 */
static void paired_read(struct paired_read *out)
{
	uint64_t narrowest = UINT64_MAX;

	for (int i = 0; i < CALIBRATION_PAIR_TRIES; i++) {
		uint64_t before = cp_clock_start();
		uint64_t read = monotonic_raw_ns();
		uint64_t after = cp_clock_stop();

		if (after - before < narrowest) {
			narrowest = after - before;
			*out = (struct paired_read){
				.ticks = before,
				.half_ticks = (double)(after - before) / 2,
				.ns = read,
			};
		}
	}
}

/*
 * Rounded to whole kHz: the kernel keeps the TSC rate as a whole number of
 * kHz (tsc_khz, what the module reports), and where the TSC is its clock
 * source CLOCK_MONOTONIC_RAW follows that number.  The paired reads find
 * it to about 0.1 kHz; rounding makes every run find the same rate, where
 * the remaining jitter would move every figure in ns in its seventh digit
 * from one run to the next, and so a figure whose samples are all the same
 * number of ticks outside the last run's interval of no width.  Over
 * another clock source (kvm-clock, HPET) rounding costs at most 0.5 kHz,
 * far less than what those clocks' reads leave uncertain.
 */
double cp_clock_calibrate_tsc_hz(unsigned int duration_ms)
{
	uint64_t wanted_ns = (uint64_t)duration_ms * 1000000ull;
	struct paired_read start, end;
	double ticks, khz;

	paired_read(&start);
	while (monotonic_raw_ns() - start.ns < wanted_ns)
		;
	paired_read(&end);
	ticks = (double)(end.ticks - start.ticks) + end.half_ticks -
		start.half_ticks;
	khz = ticks * 1e6 / (double)(end.ns - start.ns);
	return round(khz) * 1000.0;
}

bool cp_clock_tsc_invariant(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (__get_cpuid_max(0x80000000u, NULL) < 0x80000007u)
		return false;
	__cpuid(0x80000007u, eax, ebx, ecx, edx);
	return (edx >> 8) & 1;
}

static void measure_timer(struct cp_clock *clock)
{
	double *deltas = malloc(TIMER_PROBES * sizeof(*deltas));
	uint64_t smallest_step = UINT64_MAX;

	if (!deltas)
		abort();
	for (int i = 0; i < TIMER_PROBES; i++) {
		uint64_t start = cp_clock_start();
		uint64_t stop = cp_clock_stop();

		deltas[i] = (double)(stop - start);
	}
	/* Granularity: consecutive raw reads until the value moves. */
	for (int i = 0; i < TIMER_PROBES; i++) {
		uint64_t first = cp_clock_stop(), next;

		while ((next = cp_clock_stop()) == first)
			;
		if (next - first < smallest_step)
			smallest_step = next - first;
	}
	clock->overhead_ticks = cp_stats_median(deltas, TIMER_PROBES);
	clock->granularity_ticks = (double)smallest_step;
	free(deltas);
}

void cp_clock_init(struct cp_clock *clock, uint32_t module_tsc_khz)
{
	if (module_tsc_khz) {
		clock->tsc_hz = module_tsc_khz * 1000.0;
		clock->source = CP_TSC_FROM_MODULE;
	} else {
		clock->tsc_hz = cp_clock_calibrate_tsc_hz(50);
		clock->source = CP_TSC_CALIBRATED;
	}
	clock->tsc_invariant = cp_clock_tsc_invariant();
	measure_timer(clock);
}

#define ADDS_PER_ROUND 1000
#define ADD_ROUNDS 200
#define ADD_REPEATS 5

/*
 * ADDS_PER_ROUND dependent adds on one register, @rounds times.  The
 * addend is a register, not an immediate: recent Intel cores fold chains
 * of add-immediate in the renamer and would report several adds per cycle.
 */
static uint64_t time_add_chain(unsigned int rounds)
{
	uint64_t value = 0, addend = 1, start, stop;

	start = cp_clock_start();
	for (unsigned int round = 0; round < rounds; round++)
		__asm__ __volatile__(
			".rept 1000\n\t"
			"add %1, %0\n\t"
			".endr"
			: "+r"(value)
			: "r"(addend));
	stop = cp_clock_stop();
	__asm__ __volatile__("" : : "r"(value));
	return stop - start;
}

double cp_clock_core_cycles_per_tick(void)
{
	double best = 0;

	_Static_assert(ADDS_PER_ROUND == 1000, ".rept above must match");
	time_add_chain(ADD_ROUNDS);	/* warm the code and wake the core */
	/* The fastest repeat is the least disturbed one. */
	for (int i = 0; i < ADD_REPEATS; i++) {
		double ticks = (double)time_add_chain(ADD_ROUNDS);
		double ratio = (double)ADDS_PER_ROUND * ADD_ROUNDS / ticks;

		if (ratio > best)
			best = ratio;
	}
	return best;
}
