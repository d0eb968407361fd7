// SPDX-License-Identifier: GPL-2.0
/*
 * The measurement runner: bound kernel threads, bounded interrupt-off
 * windows, partner timeouts and prompt stops.  See runner.h.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#include <asm/fpu/api.h>
#include <asm/special_insns.h>
#include <asm/tsc.h>
#include "runner.h"

/* run->sync: generation << 32 | flags | threads that joined. */
#define CP_SYNC_JOINED		0xffffULL
#define CP_SYNC_GO		BIT_ULL(16)
#define CP_SYNC_CANCEL		BIT_ULL(17)
#define CP_SYNC_STOP		BIT_ULL(18)
#define CP_SYNC_GEN(v)		((v) >> 32)

/* Tries of one sample that overran its window before giving up. */
#define CP_MAX_TRIES		8
/* Retries of one sample whose window something else stretched. */
#define CP_MAX_DISTURBED	64
/* Partner timeouts of missed rounds, every follower alive, before ETIMEDOUT. */
#define CP_MISS_TIMEOUTS	10
/*
 * A status of a sample: it overran a window that lasted more than twice
 * the bound (interrupts were off: the CPU was taken away unseen).
 */
#define CP_DISTURBED		1

/**
 * struct cp_run - a running measurement
 * @spec: what to run.
 * @res: where results go.
 * @budget: window length, TSC ticks.
 * @join_budget: how long the leader waits in a window for the others,
 *	between @join_min and @join_max.
 * @join_min: the join wait's start and floor, a quarter window.
 * @join_max: its bound, half a window.
 * @timeout_ns: partner timeout.
 * @miss_since: ktime_get_ns() of the first of the rounds missed in a row,
 *	or of the sample's start.
 * @miss_rounds: rounds missed in a row.
 * @sync: the round handshake (CP_SYNC_*).
 * @abort: 0, or the negative errno that ends the run.
 * @arrived: threads past the start barrier's entry.
 * @running: threads not finished yet.
 * @done: completed by the last thread to finish.
 * @silent_cpu: the CPU whose thread did not answer, or did not keep up
 *	(ETIMEDOUT).
 * @slow_rounds: 0 when @silent_cpu's thread did not answer; else the
 *	rounds it missed in a row, alive, before ETIMEDOUT.
 * @slow_joins: how many of @slow_rounds it joined.
 * @slow_ns: how long @slow_rounds took.
 * @leader_beat: ktime_get_ns() of the leader's last sign of life: a round
 *	offered, a wait for reports, a test build's hold; followers time out
 *	after it.
 * @nr: threads.
 * @w: the threads.
 */
struct cp_run {
	const struct cp_run_spec *spec;
	struct cp_run_res *res;
	u64 budget;
	u64 join_budget;
	u64 join_min;
	u64 join_max;
	u64 timeout_ns;
	u64 miss_since;
	u64 miss_rounds;
	atomic64_t sync;
	atomic_t abort;
	atomic_t arrived;
	atomic_t running;
	struct completion done;
	int silent_cpu;
	u64 slow_rounds;
	u64 slow_joins;
	u64 slow_ns;
	u64 leader_beat;
	unsigned int nr;
	struct cp_worker w[];
};

struct cp_window {
	unsigned long flags;
	u64 start;
};

/**
 * cp_run_ctx() - the experiment's state
 * @w: a worker
 *
 * Return: cp_run_spec.ctx.
 */
void *cp_run_ctx(const struct cp_worker *w)
{
	return w->run->spec->ctx;
}

static void cp_run_abort(struct cp_run *run, int code)
{
	atomic_cmpxchg(&run->abort, 0, code);
}

/**
 * cp_run_check() - whether a waiting or working thread must stop
 * @w: the worker
 * @deadline: TSC value its window must end by, or 0 outside a window
 *
 * Return: 0 to go on, the run's abort code, or -EOVERFLOW after @deadline.
 */
int cp_run_check(const struct cp_worker *w, u64 deadline)
{
	int code = atomic_read(&w->run->abort);

	if (code)
		return code;
	if (deadline && rdtsc() > deadline)
		return -EOVERFLOW;
	return 0;
}

static void cp_window_begin(struct cp_worker *w, struct cp_window *win)
{
	if (w->run->spec->ops->fpu)
		kernel_fpu_begin();
	else
		preempt_disable();
	local_irq_save(win->flags);
	/*
	 * The values are reported as this CPU's: check where the window
	 * really is rather than trust the binding.
	 */
	w->ran_on = raw_smp_processor_id();
	if (unlikely(w->ran_on != (int)w->cpu))
		cp_run_abort(w->run, -EIO);
	win->start = rdtsc_ordered();
}

/* Return: the window's length, TSC ticks. */
static u64 cp_window_end(struct cp_worker *w, struct cp_window *win)
{
	u64 len = rdtsc_ordered() - win->start;

	local_irq_restore(win->flags);
	if (w->run->spec->ops->fpu)
		kernel_fpu_end();
	else
		preempt_enable();
	w->windows++;
	if (len > w->window_max)
		w->window_max = len;
	return len;
}

/*
 * A sample's status from its window: an overrun in a window more than twice
 * its bound long was not the sample's doing.
 */
static int cp_window_status(const struct cp_run *run, int ret, u64 len)
{
	return ret == -EOVERFLOW && len > 2 * run->budget ? CP_DISTURBED : ret;
}

/*
 * Deadline of the work inside a window that began at @start, with room
 * for the last stretch between two looks at the clock.
 */
static u64 cp_sample_deadline(const struct cp_run *run, u64 start)
{
	return start + run->budget - run->budget / 8;
}

static bool cp_timed_out(const struct cp_run *run, u64 since)
{
	return ktime_get_ns() - since > run->timeout_ns;
}

/*
 * Between windows: let others run now and then, spin politely otherwise.
 * Now and then, too, the waiting thread says it is alive in @beat, so that
 * its partners time out only on a thread that has stopped running.
 */
static void cp_pause(unsigned long *spins, u64 *beat)
{
	if (++*spins % 64)
		return cpu_relax();
	WRITE_ONCE(*beat, ktime_get_ns());
	cond_resched();
}

static int cp_prepare(struct cp_worker *w)
{
	const struct cp_run_ops *ops = w->run->spec->ops;

	return ops->prepare ? ops->prepare(w) : 0;
}

/* Wait for every follower's report of round @gen. */
static int cp_collect(struct cp_worker *w, u64 gen)
{
	struct cp_run *run = w->run;
	unsigned long spins = 0;
	u64 since = ktime_get_ns();
	unsigned int i;
	int status = w->status, ret;

	for (i = 1; i < run->nr; i++) {
		struct cp_worker *f = &run->w[i];

		/* Pairs with the release in cp_follow(): @value is valid. */
		while (smp_load_acquire(&f->reported) != gen) {
			ret = cp_run_check(w, 0);
			if (ret)
				return ret;
			if (cp_timed_out(run, since)) {
				run->silent_cpu = f->cpu;
				return -ETIMEDOUT;
			}
			cp_pause(&spins, &run->leader_beat);
		}
		/* A disturbed window explains its partners' overruns. */
		if (f->status == CP_DISTURBED ||
		    (f->status && status != -EOVERFLOW &&
		     status != CP_DISTURBED))
			status = f->status;
	}
	return status;
}

/*
 * One attempt at a round: offer it, wait in the window for every follower,
 * go, sample.  -EAGAIN when not every follower joined in time.
 */
static int cp_lead_round(struct cp_worker *w, u64 gen)
{
	struct cp_run *run = w->run;
	u64 want = run->nr - 1, v, join_end, len;
	struct cp_window win;
	int ret;

	WRITE_ONCE(run->leader_beat, ktime_get_ns());
	atomic64_set(&run->sync, gen << 32);
	cp_window_begin(w, &win);
	join_end = win.start + run->join_budget;
	for (;;) {
		v = atomic64_read(&run->sync);
		if ((v & CP_SYNC_JOINED) == want) {
			if (atomic64_cmpxchg(&run->sync, v, v | CP_SYNC_GO) == v)
				break;
			continue;
		}
		ret = cp_run_check(w, join_end);
		if (ret) {
			if (atomic64_cmpxchg(&run->sync, v,
					     v | CP_SYNC_CANCEL) != v)
				continue;
			cp_window_end(w, &win);
			return ret == -EOVERFLOW ? -EAGAIN : ret;
		}
		cpu_relax();
	}
	ret = run->spec->ops->sample(w, gen, cp_sample_deadline(run, win.start),
				     &w->value);
	len = cp_window_end(w, &win);
	w->status = cp_window_status(run, ret, len);
	return cp_collect(w, gen);
}

static void cp_commit(struct cp_worker *w, u32 sample)
{
	struct cp_run *run = w->run;
	struct cp_run_res *res = run->res;
	unsigned int i, k = 0;

	for (i = 0; i < run->nr; i++) {
		if (!(run->spec->timed & BIT_ULL(i)))
			continue;
		res->values[k++ * res->samples + sample] = run->w[i].value;
	}
}

/*
 * Test builds: after the first sample, hold the run until the hold bit is
 * cleared, so that a test can act (take a CPU offline, rmmod) while a run
 * is certainly going on, however fast the machine.  The leader sleeps and
 * says it is alive; an abort (a signal, a fault) ends the hold.
 */
static void cp_hold(struct cp_worker *w)
{
	struct cp_run *run = w->run;

	while (cp_fault(CP_FAULT_HOLD) && !atomic_read(&run->abort)) {
		WRITE_ONCE(run->leader_beat, ktime_get_ns());
		usleep_range(1000, 2000);
	}
}

/* Every follower joined a round (or the sample begins): none missed. */
static void cp_lead_joined(struct cp_run *run)
{
	unsigned int i;

	run->miss_since = ktime_get_ns();
	run->miss_rounds = 0;
	for (i = 1; i < run->nr; i++)
		run->w[i].joins_mark = READ_ONCE(run->w[i].joins);
	run->join_budget = max(run->join_budget / 2, run->join_min);
}

/*
 * A round was missed: wait longer for the next one.  ETIMEDOUT when a
 * follower has shown no sign of life for the partner timeout, or when rounds
 * have missed for CP_MISS_TIMEOUTS partner timeouts (the follower that
 * joined the fewest of them is named).
 */
static int cp_lead_missed(struct cp_run *run)
{
	u64 now = ktime_get_ns(), fewest = U64_MAX, joins, seen;
	unsigned int i, slow = 1;

	if (run->res->missed_rounds < U32_MAX)
		run->res->missed_rounds++;
	run->miss_rounds++;
	run->join_budget = min(run->join_budget * 2, run->join_max);
	for (i = 1; i < run->nr; i++) {
		struct cp_worker *f = &run->w[i];

		/* Its sign of life may be newer than @now. */
		seen = max(READ_ONCE(f->alive), run->miss_since);
		if (now > seen && now - seen > run->timeout_ns) {
			run->silent_cpu = f->cpu;
			return -ETIMEDOUT;
		}
		joins = READ_ONCE(f->joins) - f->joins_mark;
		if (joins < fewest) {
			fewest = joins;
			slow = i;
		}
	}
	if (now - run->miss_since <= CP_MISS_TIMEOUTS * run->timeout_ns)
		return 0;
	run->silent_cpu = run->w[slow].cpu;
	run->slow_rounds = run->miss_rounds;
	run->slow_joins = fewest;
	run->slow_ns = now - run->miss_since;
	return -ETIMEDOUT;
}

static int cp_lead(struct cp_worker *w)
{
	struct cp_run *run = w->run;
	unsigned int tries, disturbed;
	u64 gen = 0;
	u32 s;
	int ret = 0;

	for (s = 0; s < run->spec->samples && !ret; s++) {
		tries = 0;
		disturbed = 0;
		ret = cp_prepare(w);
		cp_lead_joined(run);
		while (!ret) {
			ret = cp_lead_round(w, ++gen);
			if (ret == -EAGAIN) {
				ret = cp_lead_missed(run);
				cond_resched();
				continue;
			}
			if (run->miss_rounds)
				cp_lead_joined(run);
			if (ret == CP_DISTURBED &&
			    ++disturbed <= CP_MAX_DISTURBED) {
				run->res->disturbed++;
				ret = cp_prepare(w);
				cond_resched();
				continue;
			}
			if (ret == CP_DISTURBED)
				ret = -EOVERFLOW;
			if (ret == -EOVERFLOW && ++tries < CP_MAX_TRIES) {
				run->res->retries++;
				ret = cp_prepare(w);
				cond_resched();
				continue;
			}
			if (!ret)
				cp_commit(w, s);
			if (!ret && !s)
				cp_hold(w);
			break;
		}
		cond_resched();
	}
	if (ret) {
		if (ret == -ETIMEDOUT && run->silent_cpu < 0)
			run->silent_cpu = run->nr > 1 ? run->w[1].cpu : w->cpu;
		cp_run_abort(run, ret);
	}
	atomic64_set(&run->sync, ((gen + 1) << 32) | CP_SYNC_STOP);
	return ret;
}

/* A follower joined round @v: wait for go (true) or cancellation. */
static bool cp_await_go(struct cp_worker *w, struct cp_window *win, u64 v)
{
	struct cp_run *run = w->run;
	u64 now;

	for (;;) {
		now = atomic64_read(&run->sync);
		if (CP_SYNC_GEN(now) != CP_SYNC_GEN(v) || (now & CP_SYNC_CANCEL))
			return false;
		if (now & CP_SYNC_GO)
			return true;
		/* A leader stalled past our window: leave the round. */
		if (rdtsc() > win->start + run->budget / 2 &&
		    atomic64_cmpxchg(&run->sync, now, now - 1) == now)
			return false;
		cpu_relax();
	}
}

static int cp_follow(struct cp_worker *w)
{
	struct cp_run *run = w->run;
	unsigned long spins = 0;
	u64 last = 0, seen = 0, since = ktime_get_ns(), v, len;
	struct cp_window win;
	bool prepared = false;
	int ret;

	for (;;) {
		if (!prepared) {
			ret = cp_prepare(w);
			if (ret)
				return ret;
			prepared = true;
		}
		v = atomic64_read(&run->sync);
		if (v & CP_SYNC_STOP)
			return 0;
		ret = cp_run_check(w, 0);
		if (ret)
			return ret;
		if (CP_SYNC_GEN(v) != seen) {
			/* A new round offered: the leader and we are alive. */
			seen = CP_SYNC_GEN(v);
			since = ktime_get_ns();
			WRITE_ONCE(w->alive, since);
		}
		if (CP_SYNC_GEN(v) <= last ||
		    (v & (CP_SYNC_GO | CP_SYNC_CANCEL))) {
			since = max(since, READ_ONCE(run->leader_beat));
			if (cp_timed_out(run, since)) {
				run->silent_cpu = run->w[0].cpu;
				return -ETIMEDOUT;
			}
			cp_pause(&spins, &w->alive);
			continue;
		}
		cp_window_begin(w, &win);
		if (atomic64_cmpxchg(&run->sync, v, v + 1) != v) {
			cp_window_end(w, &win);
			continue;
		}
		if (!cp_await_go(w, &win, v)) {
			cp_window_end(w, &win);
			WRITE_ONCE(w->joins, w->joins + 1);
			last = CP_SYNC_GEN(v);
			continue;
		}
		ret = run->spec->ops->sample(w, CP_SYNC_GEN(v),
					     cp_sample_deadline(run, win.start),
					     &w->value);
		len = cp_window_end(w, &win);
		WRITE_ONCE(w->joins, w->joins + 1);
		ret = cp_window_status(run, ret, len);
		w->status = ret;
		/* Publish value and status before the round number. */
		smp_store_release(&w->reported, CP_SYNC_GEN(v));
		last = CP_SYNC_GEN(v);
		prepared = false;
		since = ktime_get_ns();
		if (ret && ret != -EOVERFLOW && ret != CP_DISTURBED)
			return ret;
	}
}

/* Test builds: a partner that never answers, until the run ends. */
static bool cp_play_silent(struct cp_worker *w)
{
	struct cp_run *run = w->run;

	if (!cp_fault(CP_FAULT_SILENT_PARTNER) || run->nr < 2 ||
	    w->index != run->nr - 1)
		return false;
	while (!atomic_read(&run->abort) &&
	       !(atomic64_read(&run->sync) & CP_SYNC_STOP))
		usleep_range(1000, 2000);
	return true;
}

/* Every thread is running on its CPU before any measures. */
static int cp_start_barrier(struct cp_worker *w)
{
	struct cp_run *run = w->run;
	unsigned long spins = 0;
	u64 since = ktime_get_ns();
	int ret;

	atomic_inc(&run->arrived);
	while (atomic_read(&run->arrived) < run->nr) {
		ret = cp_run_check(w, 0);
		if (ret)
			return ret;
		if (cp_timed_out(run, since))
			return -ETIMEDOUT;
		cp_pause(&spins, &w->alive);
	}
	return 0;
}

static int cp_worker_fn(void *data)
{
	struct cp_worker *w = data;
	struct cp_run *run = w->run;
	int ret;

	ret = cp_start_barrier(w);
	if (!ret && !cp_play_silent(w))
		ret = w->index ? cp_follow(w) : cp_lead(w);
	if (ret)
		cp_run_abort(run, ret);
	if (atomic_dec_and_test(&run->running))
		complete(&run->done);

	/* Stay until cp_run() collects us, so the run outlives no thread. */
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/*
 * Wait for the threads; a signal stops them early: a fatal one, or one the
 * caller handles (a tool's SIGINT handler must not wait for the end).
 */
static void cp_run_wait(struct cp_run *run)
{
	long left;

	/* Timed waits keep the hung-task detector quiet on long runs. */
	for (;;) {
		left = wait_for_completion_interruptible_timeout(&run->done,
								 HZ);
		if (left > 0)
			return;
		if (left < 0)
			break;
	}
	cp_run_abort(run, -EINTR);
	while (!wait_for_completion_timeout(&run->done, HZ))
		;
}

static bool cp_run_uses_cpu(const struct cp_run *run, unsigned int cpu)
{
	unsigned int i;

	for (i = 0; i < run->nr; i++)
		if (run->w[i].cpu == cpu)
			return true;
	return false;
}

/*
 * Test builds: a thread placed where the request did not ask.  On a CPU
 * another thread of the run spins on, it would never get to a window (a
 * partner timeout instead), so a CPU of its own is preferred.
 */
static unsigned int cp_run_bind_cpu(const struct cp_run *run,
				    const struct cp_worker *w)
{
	unsigned int cpu, other = w->cpu;

	if (!cp_fault(CP_FAULT_WRONG_CPU) || w->index != run->nr - 1)
		return w->cpu;
	for_each_online_cpu(cpu) {
		if (!cp_run_uses_cpu(run, cpu))
			return cpu;
		if (other == w->cpu)
			other = cpu;
	}
	return other;
}

static int cp_run_start(struct cp_run *run)
{
	unsigned int i;

	for (i = 0; i < run->nr; i++) {
		struct cp_worker *w = &run->w[i];
		struct task_struct *t;

		t = kthread_create_on_node(cp_worker_fn, w, cpu_to_node(w->cpu),
					   "cacheprobe/%u", w->cpu);
		if (IS_ERR(t))
			return PTR_ERR(t);
		cp_live_inc(t);
		get_task_struct(t);
		kthread_bind(t, cp_run_bind_cpu(run, w));
		w->task = t;
	}
	for (i = 0; i < run->nr; i++)
		wake_up_process(run->w[i].task);
	return 0;
}

static void cp_run_stop(struct cp_run *run)
{
	unsigned int i;

	for (i = 0; i < run->nr; i++) {
		if (!run->w[i].task)
			continue;
		kthread_stop(run->w[i].task);
		cp_live_dec(run->w[i].task);
		put_task_struct(run->w[i].task);
	}
}

static u64 cp_window_cycles(unsigned int us)
{
	/* An unknown TSC rate is taken as 100 MHz: short, never long. */
	unsigned int khz = tsc_khz ? tsc_khz : 100000;

	return div_u64((u64)us * khz, 1000);
}

static void cp_run_report(struct cp_run *run, struct cp_run_res *res)
{
	unsigned int i;

	for (i = 0; i < run->nr; i++)
		res->window_max_cycles = max(res->window_max_cycles,
					     run->w[i].window_max);
	res->window_max_nsec = cp_tsc_to_ns(res->window_max_cycles);
	res->windows = run->w[0].windows;
}

static const struct cp_worker *cp_run_stray(const struct cp_run *run)
{
	unsigned int i;

	for (i = 0; i < run->nr; i++) {
		const struct cp_worker *w = &run->w[i];

		if (w->ran_on >= 0 && w->ran_on != (int)w->cpu)
			return w;
	}
	return NULL;
}

static int cp_run_explain(struct cp_run *run, int ret, struct cp_err *err)
{
	const struct cp_worker *stray;

	switch (ret) {
	case -EIO:
		stray = cp_run_stray(run);
		return cp_fail(err, EIO, 0, "a thread ran on another CPU",
			       "the thread for CPU %u ran on CPU %d",
			       stray ? stray->cpu : 0,
			       stray ? stray->ran_on : -1);
	case -ETIMEDOUT:
		if (run->silent_cpu < 0)
			return cp_fail(err, ETIMEDOUT, 0,
				       "partner CPU did not answer",
				       "a thread did not start within %llu ms",
				       div_u64(run->timeout_ns, NSEC_PER_MSEC));
		if (run->slow_rounds)
			return cp_fail(err, ETIMEDOUT, 0,
				       "partner CPU did not keep up",
				       "CPU %d joined %llu of %llu rounds in %llu ms (busy or descheduled)",
				       run->silent_cpu, run->slow_joins,
				       run->slow_rounds,
				       div_u64(run->slow_ns, NSEC_PER_MSEC));
		return cp_fail(err, ETIMEDOUT, 0, "partner CPU did not answer",
			       "the thread on CPU %d did not answer within %llu ms",
			       run->silent_cpu,
			       div_u64(run->timeout_ns, NSEC_PER_MSEC));
	case -EOVERFLOW:
		return cp_fail(err, EOVERFLOW, CACHEPROBE_ATTR_OPS,
			       "a sample does not fit in an interrupt-off window",
			       "%u tries overran max_irqoff_us %u; ask for fewer operations per sample",
			       CP_MAX_TRIES, cp_param_max_irqoff_us());
	case -EINTR:
		return cp_fail(err, EINTR, 0, "interrupted by a signal",
			       "the measurement was stopped");
	case -ENOMEM:
		return cp_fail(err, ENOMEM, 0, "out of memory",
			       "cannot start the measurement threads");
	default:
		return ret;
	}
}

/**
 * cp_run() - run a measurement on bound kernel threads
 * @spec: the experiment, CPUs and samples
 * @res: receives the values (allocated here) and the run's numbers
 * @err: filled on failure
 *
 * Call between cp_run_lock() and cp_run_unlock().  Returns when every
 * thread has stopped, whatever happened.
 *
 * Return: 0, -ETIMEDOUT, -EOVERFLOW, -EINTR, -ENOMEM, -EIO (a window ran
 * on another CPU than its thread's) or an experiment's error, with @err
 * filled.
 */
int cp_run(const struct cp_run_spec *spec, struct cp_run_res *res,
	   struct cp_err *err)
{
	struct cp_run *run;
	unsigned int i;
	int ret;

	res->samples = spec->samples;
	res->ops = spec->ops_per_sample;
	res->nr_series = 0;
	for (i = 0; i < spec->nr_cpus; i++)
		if (spec->timed & BIT_ULL(i))
			res->series_cpus[res->nr_series++] = spec->cpus[i];
	res->values = kvcalloc(array_size(res->nr_series, spec->samples),
			       sizeof(u64), GFP_KERNEL);
	cp_live_inc(res->values);
	run = kzalloc(struct_size(run, w, spec->nr_cpus), GFP_KERNEL);
	if (!res->values || !run) {
		kfree(run);
		return cp_fail(err, ENOMEM, 0, "out of memory",
			       "results of %u samples", spec->samples);
	}
	run->spec = spec;
	run->res = res;
	run->nr = spec->nr_cpus;
	run->budget = cp_window_cycles(cp_param_max_irqoff_us());
	run->join_min = run->budget / 4;
	run->join_max = run->budget / 2;
	run->join_budget = run->join_min;
	run->timeout_ns = (u64)cp_param_partner_timeout_ms() * NSEC_PER_MSEC;
	run->silent_cpu = -1;
	cp_live_inc(run);
	atomic64_set(&run->sync, 0);
	atomic_set(&run->running, run->nr);
	init_completion(&run->done);
	for (i = 0; i < run->nr; i++) {
		run->w[i].run = run;
		run->w[i].index = i;
		run->w[i].cpu = spec->cpus[i];
		run->w[i].ran_on = -1;
	}

	ret = cp_run_start(run);
	if (ret) {
		/* Threads never woken exit at kthread_stop() untouched. */
		cp_run_stop(run);
		cp_live_dec(run);
		kfree(run);
		return cp_run_explain(NULL, -ENOMEM, err);
	}
	cp_run_wait(run);
	cp_run_stop(run);
	ret = atomic_read(&run->abort);
	cp_run_report(run, res);
	if (ret)
		ret = cp_run_explain(run, ret, err);
	cp_live_dec(run);
	kfree(run);
	return ret;
}

/**
 * cp_run_res_free() - release what cp_run() allocated
 * @res: the results
 */
void cp_run_res_free(struct cp_run_res *res)
{
	cp_live_dec(res->values);
	kvfree(res->values);
	res->values = NULL;
}

static int cp_run_check_cpus(const struct cp_run_req *req, bool distinct,
			     struct cp_err *err)
{
	unsigned int i, j;

	for (i = 0; i < req->nr_cpus; i++) {
		u32 cpu = req->cpus[i];

		if (cpu >= nr_cpu_ids || !cpu_possible(cpu))
			return cp_fail(err, EINVAL, CACHEPROBE_ATTR_CPU_LIST,
				       "CPU id out of range",
				       "CPU %u is not a possible CPU (nr_cpu_ids %u)",
				       cpu, nr_cpu_ids);
		if (!cpu_online(cpu))
			return cp_fail(err, EINVAL, CACHEPROBE_ATTR_CPU_LIST,
				       "CPU is not online",
				       "CPU %u is not online", cpu);
		for (j = 0; distinct && j < i; j++)
			if (req->cpus[j] == cpu)
				return cp_fail(err, EINVAL,
					       CACHEPROBE_ATTR_CPU_LIST,
					       "CPU listed twice",
					       "CPU %u appears twice; this command needs distinct CPUs",
					       cpu);
	}
	return 0;
}

/**
 * cp_run_lock() - check a request's CPUs and samples, and take the locks
 * @req: CPUs and samples
 * @min_cpus: fewest CPUs the command takes
 * @max_cpus: most CPUs the command takes
 * @distinct: whether a CPU may appear twice
 * @nr_series: series the reply will carry
 * @res: its values_cap is checked
 * @err: filled on failure
 *
 * On success the caller holds cp_op_lock and the CPU hotplug lock, so the
 * CPUs stay online until cp_run_unlock().
 *
 * Return: 0, -EINVAL, -E2BIG, or -EINTR while waiting for the lock, with
 * @err filled.
 */
int cp_run_lock(const struct cp_run_req *req, unsigned int min_cpus,
		unsigned int max_cpus, bool distinct, unsigned int nr_series,
		struct cp_run_res *res, struct cp_err *err)
{
	u64 values = (u64)req->samples * nr_series;
	int ret;

	if (req->nr_cpus < min_cpus || req->nr_cpus > max_cpus)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_CPU_LIST,
			       "wrong number of CPUs",
			       "%u CPUs given; this command takes %u to %u",
			       req->nr_cpus, min_cpus, max_cpus);
	if (!req->samples)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_SAMPLES,
			       "SAMPLES must be at least 1", "0 samples asked");
	if (req->samples > CACHEPROBE_MAX_SAMPLES)
		return cp_fail(err, E2BIG, CACHEPROBE_ATTR_SAMPLES,
			       "too many samples", "%u samples, at most %u",
			       req->samples, CACHEPROBE_MAX_SAMPLES);
	if (values > CACHEPROBE_MAX_VALUES)
		return cp_fail(err, E2BIG, CACHEPROBE_ATTR_SAMPLES,
			       "too many samples",
			       "%u samples x %u series = %llu values, at most %u",
			       req->samples, nr_series, values,
			       CACHEPROBE_MAX_VALUES);
	if (res->values_cap && values > res->values_cap)
		return cp_fail(err, EINVAL, 0, "value array too small",
			       "room for %u values, %llu needed",
			       res->values_cap, values);

	ret = cp_op_lock_interruptible(err);
	if (ret)
		return ret;
	cpus_read_lock();
	ret = cp_run_check_cpus(req, distinct, err);
	if (ret)
		cp_run_unlock();
	return ret;
}

/**
 * cp_run_unlock() - release what cp_run_lock() took
 */
void cp_run_unlock(void)
{
	cpus_read_unlock();
	mutex_unlock(&cp_op_lock);
}

/**
 * cp_buf_alloc_pages() - allocate a zeroed measurement buffer
 * @size: bytes, at most max_buffer_mb
 * @huge: map it with 2 MiB pages where the kernel can (vmalloc_huge(),
 *	which falls back to 4 KiB pages by itself); else 4 KiB pages
 * @what: what it is for, in messages
 * @attr: the attribute that asked for @size
 * @err: filled on failure
 *
 * Return: the page-aligned buffer, or an ERR_PTR: -E2BIG above the limit,
 * -ENOMEM.
 */
void *cp_buf_alloc_pages(u64 size, bool huge, const char *what, int attr,
			 struct cp_err *err)
{
	gfp_t gfp = GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN |
		    __GFP_RETRY_MAYFAIL;
	u64 limit = cp_param_max_buffer_bytes();
	void *buf;

	if (size > limit)
		return ERR_PTR(cp_fail(err, E2BIG, attr,
				       "buffer larger than max_buffer_mb",
				       "%s of %llu bytes; the limit is %llu",
				       what, size, limit));
	/*
	 * vmalloc_huge() maps with 2 MiB pages only when each online node's
	 * share is at least that: smaller buffers are allocated that large
	 * (user mode's huge pages are whole 2 MiB ranges too).
	 */
	if (huge)
		size = ALIGN(max_t(u64, size,
				   (u64)PMD_SIZE * num_online_nodes()),
			     PMD_SIZE);
	if (cp_fault(CP_FAULT_NOMEM))
		buf = NULL;
	else if (huge)
		buf = vmalloc_huge(size, gfp);
	else
		buf = __vmalloc(size, gfp);
	if (!buf)
		return ERR_PTR(cp_fail(err, ENOMEM, attr,
				       "cannot allocate the buffer",
				       "%s of %llu bytes", what, size));
	cp_live_inc(buf);
	return buf;
}

/**
 * cp_buf_alloc() - allocate a zeroed measurement buffer of 4 KiB pages
 * @size: bytes, at most max_buffer_mb
 * @what: what it is for, in messages
 * @attr: the attribute that asked for @size
 * @err: filled on failure
 *
 * Return: as cp_buf_alloc_pages().
 */
void *cp_buf_alloc(u64 size, const char *what, int attr, struct cp_err *err)
{
	return cp_buf_alloc_pages(size, false, what, attr, err);
}

/**
 * cp_buf_page_bytes() - the smallest page size that maps a buffer
 * @buf: a cp_buf_alloc_pages() buffer
 * @size: its bytes
 *
 * Read from the kernel's page tables, page by page, stopping at the first
 * 4 KiB page: what the buffer got, not what was asked for.
 *
 * Return: the page size in bytes, 0 if a part of @buf is not mapped.
 */
u64 cp_buf_page_bytes(const void *buf, u64 size)
{
	unsigned long addr = (unsigned long)buf, end = addr + size;
	u64 smallest = 0, bytes;
	unsigned int level;

	while (addr < end) {
		if (!lookup_address(addr, &level))
			return 0;
		bytes = page_level_size(level);
		if (!smallest || bytes < smallest)
			smallest = bytes;
		if (smallest <= PAGE_SIZE)
			break;
		addr = ALIGN_DOWN(addr, bytes) + bytes;
	}
	return smallest;
}

/**
 * cp_buf_free() - free a cp_buf_alloc() buffer
 * @buf: the buffer, or NULL
 */
void cp_buf_free(void *buf)
{
	cp_live_dec(buf);
	vfree(buf);
}

/**
 * cp_clflush_range() - CLFLUSH every line of a buffer, then MFENCE
 * @w: the worker doing it (stops early when the run is aborted)
 * @buf: start
 * @size: bytes
 *
 * Interrupts on; reschedules now and then.
 *
 * Return: 0 or the run's abort code.
 */
int cp_clflush_range(const struct cp_worker *w, void *buf, u64 size)
{
	unsigned int line = boot_cpu_data.x86_clflush_size;
	u64 off;
	int ret;

	for (off = 0; off < size; off += line) {
		clflush(buf + off);
		if (off % (4096ULL * line) == 0) {
			ret = cp_run_check(w, 0);
			if (ret)
				return ret;
			cond_resched();
		}
	}
	/* CLFLUSH is ordered by MFENCE only: done before the sample. */
	mb();
	return 0;
}
