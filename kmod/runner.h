/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The measurement runner: kernel threads bound to CPUs, started together,
 * measuring one sample per interrupt-off window.  Experiments (chase.c,
 * access.c, pingpong.c, bounce.c, xfer.c) supply a struct cp_run_ops.
 *
 * Thread 0 leads: before every sample it offers a round; the other threads
 * join it from inside their own windows, and when all have joined the
 * leader says go and every thread runs its part of the sample.  A round
 * that not every thread joins within the join wait (a quarter window at
 * first) is cancelled, counted as missed and offered again; the join wait
 * doubles after a missed round, up to half a window, and halves again
 * after a joined one.  Every thread shows a sign of life while it runs: a
 * follower when it sees a new round offered and now and then while it
 * waits for one, the leader when it offers a round and while it waits for
 * reports.  The run ends with ETIMEDOUT when a thread has shown none for
 * partner_timeout_ms (it never answered: it stopped running), or when
 * rounds have kept missing for CP_MISS_TIMEOUTS times that although every
 * follower was alive (one was busy or descheduled).
 *
 * A sample that overran its window counts as a try, CP_MAX_TRIES of them
 * before EOVERFLOW; but when the window lasted more than twice its bound,
 * something the module cannot see (a hypervisor, an SMI) took the CPU
 * away: that sample is taken again as disturbed, not charged as a try, at
 * most CP_MAX_DISTURBED times per sample.
 */
#ifndef CACHEPROBE_RUNNER_H
#define CACHEPROBE_RUNNER_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/types.h>
#include <asm/msr.h>
#include "cacheprobe.h"

struct cp_run;

/**
 * struct cp_worker - one kernel thread of a run
 * @run: the run.
 * @task: the thread.
 * @index: its role: 0 leads; the index of its CPU in the request.
 * @cpu: the CPU it is bound to.
 * @ran_on: the CPU its latest window ran on, -1 before the first.
 * @value: its result of the latest round.
 * @status: 0 or the error of the latest round (-EOVERFLOW: overran).
 * @reported: the round (generation) @value and @status belong to.
 * @window_max: longest window, TSC ticks.
 * @windows: windows used.
 * @alive: (followers) ktime_get_ns() when it last saw a new round offered
 *	or looked for one: its sign of life, which the leader reads.
 * @joins: (followers) rounds it joined; the leader reads it.
 * @joins_mark: (leader's) @joins when rounds began to miss.
 */
struct cp_worker {
	struct cp_run *run;
	struct task_struct *task;
	unsigned int index;
	unsigned int cpu;
	int ran_on;
	u64 value;
	int status;
	u64 reported;
	u64 window_max;
	u64 windows;
	u64 alive;
	u64 joins;
	u64 joins_mark;
};

/**
 * struct cp_run_ops - an experiment, as the runner sees it
 * @prepare: optional; before each sample's window, interrupts on, on the
 *	worker's CPU.  Returns 0 or a negative errno that ends the run.
 * @sample: the sample, interrupts off.  @round is the same number on every
 *	thread of the round.  Returns 0 with *@value set, -EOVERFLOW when
 *	@deadline (TSC) passed first, or the run's abort code
 *	(cp_run_check()).
 * @fpu: windows use vector registers (kernel_fpu_begin() around them).
 */
struct cp_run_ops {
	int (*prepare)(struct cp_worker *w);
	int (*sample)(struct cp_worker *w, u64 round, u64 deadline,
		      u64 *value);
	bool fpu;
};

/**
 * struct cp_run_spec - what cp_run() runs
 * @ops: the experiment.
 * @ctx: its state, cp_run_ctx() in the callbacks.
 * @cpus: one thread per CPU, in role order.
 * @nr_cpus: threads.
 * @samples: samples to take.
 * @timed: bit i set: thread i's values form a series.
 * @ops_per_sample: reported as the reply's OPS.
 */
struct cp_run_spec {
	const struct cp_run_ops *ops;
	void *ctx;
	const u32 *cpus;
	unsigned int nr_cpus;
	u32 samples;
	u64 timed;
	u64 ops_per_sample;
};

int cp_run_lock(const struct cp_run_req *req, unsigned int min_cpus,
		unsigned int max_cpus, bool distinct, unsigned int nr_series,
		struct cp_run_res *res, struct cp_err *err);
void cp_run_unlock(void);
int cp_run(const struct cp_run_spec *spec, struct cp_run_res *res,
	   struct cp_err *err);

void *cp_run_ctx(const struct cp_worker *w);
int cp_run_check(const struct cp_worker *w, u64 deadline);
void *cp_buf_alloc(u64 size, const char *what, int attr, struct cp_err *err);
void *cp_buf_alloc_pages(u64 size, bool huge, const char *what, int attr,
			 struct cp_err *err);
u64 cp_buf_page_bytes(const void *buf, u64 size);
void cp_buf_free(void *buf);
int cp_clflush_range(const struct cp_worker *w, void *buf, u64 size);

#endif /* CACHEPROBE_RUNNER_H */
