/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Work that takes turns: each part in a thread of its own, one running at
 * a time, handing over at points it chooses.  The run's areas use it to
 * interleave their rounds (cli/run_turns.h): a round of one area, then a
 * round of the next, so that each area's rounds spread over the whole run
 * and a slow stretch of the machine (the host's clock or load moving for
 * some seconds) falls on every area's rounds alike, and into their
 * intervals, instead of on one area's whole measurement.
 */
#ifndef CACHEPROBE_TURNS_H
#define CACHEPROBE_TURNS_H

#include <stddef.h>
#include <stdint.h>

/* Part @index of the work. */
typedef void (*cp_turn_fn)(size_t index, void *data);
/* Called in part @index's thread each time it gets the turn. */
typedef void (*cp_turn_start_fn)(size_t index, void *data);

/*
 * Run @work for parts 0 to @n - 1 and return when all are done.  With
 * more than one part each runs in a thread of its own; the first whose
 * thread could be made goes first; a part runs until it calls
 * cp_turn_pass() or returns, and the turn goes to the next part still
 * running, in index order, round and round.  Only the part that has the
 * turn takes the stop signals (harness/interrupt.h).  @start (may be
 * NULL) is called in a part's thread whenever it gets the turn.  A
 * single part, and parts whose thread cannot be made, run in the calling
 * thread, one after another, after the others.
 */
void cp_turns_run(size_t n, cp_turn_fn work, cp_turn_start_fn start,
		  void *data);

/*
 * Let the other parts of cp_turns_run take their turn, and continue when
 * this part's comes again (at once outside cp_turns_run, or when no other
 * part is left).  0, or -EINTR when the run has been asked to stop
 * meanwhile (harness/interrupt.h): a part that was waiting need not
 * start another round first to find out.
 */
int cp_turn_pass(void);

/* How long this thread has waited in cp_turn_pass() for its turn, in ns
 * since it began: time a part that keeps a budget of time does not
 * spend. */
uint64_t cp_turn_waited_ns(void);

#endif
