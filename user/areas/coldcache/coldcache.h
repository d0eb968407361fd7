/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The coldcache area's parts: how cold does each eviction method leave a
 * working set?  Shared by areas/coldcache*.c only.
 */
#ifndef CACHEPROBE_AREAS_COLDCACHE_H
#define CACHEPROBE_AREAS_COLDCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "areas/area.h"
#include "harness/chase.h"
#include "harness/harness_rounds.h"
#include "client/client.h"
#include "areas/coldcache/coldcache_choices.h"
#include "evict/coldcache_flush.h"
#include "evict/coldcache_garbage.h"
#include "evict/coldcache_lines.h"
#include "evict/coldcache_plan.h"
#include "evict/line_calibrate.h"
#include "util/name_bytes.h"
#include "stats/sign_test.h"

#define COLD_LINE_SIZE 64
/*
 * The working set's lines are spread one per 4 KiB, at offsets that step
 * by a line (slot k at k * COLD_SPREAD_STRIDE), in a huge-page-backed
 * buffer.  The first pass must see only what the eviction left: with
 * lines side by side, the pass's own misses make the hardware prefetchers
 * (the adjacent-line one completing 128-byte pairs, the streamers within
 * a 4 KiB page) fetch lines it has yet to visit, and a perfect clflush
 * then showed up to half of a 24 KiB set "cached".  Prefetchers do not
 * cross 4 KiB boundaries, so a line alone in its 4 KiB is fetched only by
 * its own load.  The stepping offsets spread the lines over every cache
 * set as a dense set would.  Sets whose spread would take more than
 * COLD_SPREAD_MAX_SPAN bytes are dense (the result says which).
 */
#define COLD_SPREAD_STRIDE CP_LINES_SPREAD_STRIDE
#define COLD_SPREAD_MAX_SPAN CP_LINES_SPREAD_MAX_SPAN
#define COLD_MAX_SIZES 4
/* Laps over the working set before each eviction (see warm_up). */
#define COLD_WARM_LAPS CP_CHASE_WARM_LAPS
/* A step this many times the memory plateau is an interruption. */
#define COLD_INTERRUPTION_FACTOR 16
/* A pass interrupted before this many lines (or all of a smaller set) is
 * taken again, at most as many times in all as repetitions were asked. */
#define COLD_MIN_CLASSIFIED 256
/* Timer-floor probes before every first pass. */
#define COLD_FLOOR_PROBES 512
/* A verdict of "evicted" needs every repetition at or below this share of
 * lines served from a cache (parts per million). */
#define COLD_EVICTED_PPM 10000
/* "did not evict": the median share from caches is within this of warm's
 * (parts per million of the working set), warm's being at least
 * COLD_WARM_MIN_PPM (else warm itself left the set mostly in memory and
 * nothing can be compared with it). */
#define COLD_CLOSE_TO_WARM_PPM 100000
#define COLD_WARM_MIN_PPM 500000
/* "as cold as clflush": median and worst within this of clflush's at the
 * same size.  The first pass after a perfect flush still finds lines in
 * cache that the hardware prefetchers fetched during the pass itself. */
#define COLD_CLFLUSH_MARGIN_PPM 10000

enum cold_verdict {
	COLD_VERDICT_REFERENCE,		/* warm: nothing was evicted */
	COLD_VERDICT_EVICTED,
	COLD_VERDICT_AS_COLD_AS_CLFLUSH,
	COLD_VERDICT_PARTLY,
	COLD_VERDICT_DID_NOT_EVICT,
};

/* A step at least this slow (ticks, @floor included) is an interruption:
 * COLD_INTERRUPTION_FACTOR times the memory plateau of @levels, at
 * least 100 ticks, above the floor. */
double cold_interruption_ticks(const struct cp_line_levels *levels,
			       double floor);

/* Of @nr_lines lines counted per level in @counts (cp_lines_classify),
 * the share of level @k in parts per million, -1 when merged into the
 * next; and the share any cache served (all but the last level). */
int64_t cold_level_ppm(const struct cp_line_levels *levels,
		       const size_t *counts, size_t k, size_t nr_lines);
int64_t cold_cached_ppm(const struct cp_line_levels *levels,
			const size_t *counts, size_t nr_lines);

/* Bytes from one working-set line to the next for a set of @size bytes. */
size_t cold_line_stride(uint64_t size);

/* Everything one run of the area needs. */
struct cold_run {
	struct cp_area_context *context;
	const struct cp_coldcache_choices *choices;
	unsigned int cpu;		/* where the working set is used */
	unsigned int repetitions;
	size_t nr_sizes;
	uint64_t sizes[COLD_MAX_SIZES];
	struct cp_line_levels levels;
	struct cp_timer_floor calibration_floor;
	uint16_t *floor_steps;		/* COLD_FLOOR_PROBES a round */
	size_t floor_rounds;
	bool rounds_cut;		/* stopped or failed before the end */
	struct cp_round_clock clock;	/* read around every round */
	size_t progress_done;		/* repetitions begun */
	size_t progress_total;		/* of all the area's rotations */
	enum cp_flush_instruction flush;
	enum cp_page_size pages;	/* of the working sets (--pages) */
	uint32_t kernel_pages;		/* CHASE's PAGES; 0: not chosen */
	uint32_t kernel_abi;		/* the module's ABI version */
	uint64_t kernel_max_buffer;	/* its largest buffer, bytes */
	bool kernel_clflush;		/* the module's CPU has CLFLUSH */
	/* Kernel mode's classifier (coldcache_kernel_lines.c), measured
	 * with the module's own timer; kernel_lines: it was. */
	bool kernel_lines;
	struct cp_line_levels kernel_levels;
	struct cp_timer_floor kernel_floor;
	struct cp_eviction_plan plan;	/* at the chosen factor */
	struct cp_garbage garbage;	/* naive's, and windows for the plans */
	struct cp_readers *readers;	/* the plans' (all have the same CPUs) */
	struct cp_client *client;	/* NULL: the module is not there */
	struct cp_client *kernel_client; /* NULL: no kernel mode */
	char client_why[CACHEPROBE_MSG_MAX];
	bool wbnoinvd;			/* the module says the CPU has it */
	char wbnoinvd_why[CACHEPROBE_MSG_MAX];	/* why not, when not */
	/* Median share of lines served from caches under warm, and median
	 * and worst under clflush, per size; -1 where they did not run. */
	int64_t warm_cached_ppm[COLD_MAX_SIZES];
	int64_t clflush_median_ppm[COLD_MAX_SIZES];
	int64_t clflush_worst_ppm[COLD_MAX_SIZES];
};

/* What a method's outcome is compared with. */
struct cold_references {
	int64_t warm_median_ppm;	/* -1: unknown */
	int64_t clflush_median_ppm;	/* -1: unknown */
	int64_t clflush_worst_ppm;
};

/* One method at one working-set size, over the repetitions. */
struct cold_outcome {
	size_t nr;
	double *evict_ticks;		/* per repetition */
	double *pass_ticks;		/* per access, per repetition */
	int64_t *cached_ppm;		/* share served from any cache */
	int64_t *level_ppm[CP_MAX_LEVELS];
	uint32_t *turn;			/* of the rotation, per repetition */
	uint64_t bytes_read;		/* by the eviction, 0 for none */
	unsigned int retaken;		/* passes interrupted too early */
	size_t min_classified;		/* fewest lines a share is taken of */
	/* Against naive turn by turn (the sweep), recorded when set. */
	bool paired_with_naive;
	struct cp_paired against_naive;	/* lower: less cached than naive */
};

/* Calibrate run->levels with the line timer (coldcache_calibrate.c). */
int cold_calibrate(struct cold_run *run, struct cp_error *error);

/* Evict with @method (coldcache_evict.c): 0 or -errno.  @plan is used by
 * garbage-planned. */
int cold_evict(struct cold_run *run, enum cp_coldcache_method method,
	       const struct cp_eviction_plan *plan, const struct cp_chase *ws,
	       struct cp_error *error);
/* Whether @method can run here; if not, why (in @why). */
bool cold_available(const struct cold_run *run,
		    enum cp_coldcache_method method, char *why, size_t len);
/* Bytes the method reads as garbage. */
uint64_t cold_bytes_read(const struct cold_run *run,
			 enum cp_coldcache_method method,
			 const struct cp_eviction_plan *plan);

void cold_outcome_free(struct cold_outcome *outcome);

/* One method (with its plan) on a working set of one size, and its
 * outcome. */
struct cold_entry {
	enum cp_coldcache_method method;
	const struct cp_eviction_plan *plan;
	size_t size_index;		/* into cold_run's sizes */
	uint64_t size;
	char label[48];			/* "garbage-planned x2" */
	struct cold_outcome outcome;
};
/*
 * A working set for each of @nr @entries, of the entry's size (seeds
 * @seed, @seed + 1, ...): one per entry, since a line the last level has
 * kept through earlier evictions and re-warmings is protected as reused,
 * so a shared set would carry one method's leftovers into the next
 * method's repetition (measured: naive's median share left cached went
 * from 16 % after planned x4 to 50 % after weaker methods).  0, or -errno
 * with @error set and nothing left allocated.
 */
int cold_build_working_sets(const struct cold_entry *entries, size_t nr,
			    uint64_t seed, enum cp_page_size pages,
			    struct cp_chase **out, struct cp_error *error);
void cold_free_working_sets(struct cp_chase *sets, size_t nr);

/*
 * Entries measured side by side, in rounds: a round takes one repetition
 * of every entry still short of the run's repetitions, in an order drawn
 * for the round, each on a working set of its own (built at the start,
 * seeds from the run's seed on).  So a slower or faster spell of the
 * host falls on all of them alike, and, the run's areas taking turns
 * between rounds (harness/turns.h), on every round of each: it widens
 * their intervals instead of moving one measurement between runs.
 */
struct cold_rotation {
	struct cold_entry *entries;
	size_t nr;
	struct cp_chase *sets;		/* one per entry */
	size_t *order;			/* of the round being taken */
	uint16_t *steps;		/* a pass's, for the largest set */
	uint16_t scratch[COLD_FLOOR_PROBES];
	uint32_t round;			/* rounds taken */
};
/* Allocate the outcomes and build the sets: 0, or -errno with @error
 * set and nothing left allocated. */
int cold_rotation_start(struct cold_run *run, struct cold_rotation *rotation,
			struct cold_entry *entries, size_t nr,
			struct cp_error *error);
/* One round: 1 when it took a repetition, 0 when every entry had all of
 * them, -EINTR when asked to stop, or -errno with @error set. */
int cold_rotation_round(struct cold_run *run, struct cold_rotation *rotation,
			struct cp_error *error);
/* Whether an entry is still short of its repetitions. */
bool cold_rotation_pending(const struct cold_run *run,
			   const struct cold_rotation *rotation);
/* Free the sets (the outcomes stay). */
void cold_rotation_end(struct cold_rotation *rotation);

struct cold_bandwidth;
/*
 * Round after round until every entry of @rotation has its repetitions,
 * with a repetition of @bw (may be NULL) and, with @floor, the timer
 * floor's probes (cold_probe_floor) in each, and the turn passed to the
 * run's other areas between rounds (coldcache_rounds.c): 0, -EINTR, or
 * -errno with @error set.
 */
int cold_take_rounds(struct cold_run *run, struct cold_rotation *rotation,
		     struct cold_bandwidth *bw, bool floor,
		     struct cp_error *error);
/* Record what rounds measured of @nr @entries (also when cut short: the
 * results say so), in their order, and free the outcomes: @ret, or the
 * recording's error when @ret is 0. */
int cold_finish_rounds(struct cold_run *run, struct cold_entry *entries,
		       size_t nr, int ret, struct cp_error *error);
/* A round's probes of the line timer's floor, kept for cold_record_floor:
 * 0 or -ENOMEM. */
int cold_probe_floor(struct cold_run *run);
/* The "line timer floor" measurement of the probes (coldcache_record.c):
 * nothing when there are none; 0 or -ENOMEM. */
int cold_record_floor(struct cold_run *run);

/* The progress of the area: a repetition of @label at @size begins
 * (cold_run's progress_done of progress_total). */
void cold_progress(struct cold_run *run, const char *label, uint64_t size);

/* Record an outcome as two measurements, evict and first pass
 * (coldcache_record.c); @label names the method ("garbage-planned x2"). */
int cold_record(struct cold_run *run, const char *label,
		enum cp_coldcache_method method, size_t size_index,
		uint64_t size, struct cold_outcome *outcome);
/* cold_record of every entry, in their order. */
int cold_record_entries(struct cold_run *run, struct cold_entry *entries,
			size_t nr);
/* Record that @method could not run, and why, as a note. */
void cold_record_unavailable(struct cold_run *run,
			     enum cp_coldcache_method method, const char *why);
/* A note of the area on the run as a whole (cp_results_note()). */
void cold_note(struct cold_run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The verdict of an outcome: evicted when the worst repetition left at
 * most 1 % in caches, or when median and worst are within 1 point of
 * clflush's; did not evict when the median is within 10 points of warm's
 * (warm having kept at least half); partly evicted otherwise. */
enum cold_verdict cold_judge(enum cp_coldcache_method method,
			     int64_t median_cached_ppm, int64_t worst_cached_ppm,
			     const struct cold_references *references);
const char *cold_verdict_name(enum cold_verdict verdict);

/* Bandwidth side by side: planned against a plain stream of the same
 * bytes (coldcache_bandwidth.c), one repetition of each per round. */
struct cold_bandwidth {
	double *planned;		/* ticks per line, per repetition */
	double *stream;
	size_t n;			/* repetitions taken */
	size_t wanted;
};
int cold_bandwidth_start(struct cold_run *run, struct cold_bandwidth *bw,
			 struct cp_error *error);
/* One repetition, unless all were taken: 0, -EINTR when asked to stop,
 * or -errno with @error set. */
int cold_bandwidth_round(struct cold_run *run, struct cold_bandwidth *bw,
			 struct cp_error *error);
/* Record what was taken (nothing when nothing was) and free it. */
int cold_bandwidth_record(struct cold_run *run, struct cold_bandwidth *bw,
			  struct cp_error *error);
void cold_bandwidth_free(struct cold_bandwidth *bw);

/* Kernel mode (coldcache_kernel.c): reach the module as --mode says (0,
 * or -errno when kernel or both was asked and it cannot be had), then
 * measure warm, clflush and wbinvd through CHASE. */
int cold_kernel_open(struct cold_run *run, struct cp_error *error);
int cold_kernel_measure(struct cold_run *run, struct cp_error *error);
/* Kernel mode's classifier levels (module ABI 6 and CLFLUSH; otherwise a
 * note says why lines are not classified): 0 or -errno with @error set. */
int cold_kernel_lines_calibrate(struct cold_run *run, struct cp_error *error);
/* With the kernel classifier, time single lines of the working set of
 * @size after @method (warm, wbinvd; the others are not timed so) and put
 * their shares per level on @m: "<level>_ppm", "cached_ppm",
 * "loads_classified", "loads_left_out", "line_stride_bytes".  0 or
 * -errno with @error set. */
int cold_kernel_lines_classify(struct cold_run *run,
			       enum cp_coldcache_method method, uint64_t size,
			       struct cp_measurement *m, struct cp_error *error);
/* Notes on @levels (plateaus, thresholds, merges on @spread), each line
 * beginning with @what. */
void cold_note_levels(struct cold_run *run, const struct cp_line_levels *levels,
		      double spread, const char *what);
/* "l1d_ppm", the parameter of a level's share, for the level "L1d". */
void cold_level_param(const char *level, char *out, size_t len);
/* Kernel verdict from first-pass costs: "did not evict" at most
 * COLD_COST_LIKE_WARM times warm's (0: unknown), "as cold as clflush" at
 * least COLD_COST_LIKE_CLFLUSH times clflush's (0: unknown). */
#define COLD_COST_LIKE_WARM 1.5
#define COLD_COST_LIKE_CLFLUSH 0.9
enum cold_verdict cold_judge_cost(double median, double warm, double flushed);

#endif
