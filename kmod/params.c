// SPDX-License-Identifier: GPL-2.0
/* Module parameters that bound what a measurement may do. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/sizes.h>
#include "cacheprobe.h"

static unsigned int max_irqoff_us = 2000;
static unsigned int max_buffer_mb = 256;
static unsigned int partner_timeout_ms = 2000;

static int cp_set_irqoff(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 10, 100000);
}

static int cp_set_buffer(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, 65536);
}

static int cp_set_timeout(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 10, 600000);
}

static const struct kernel_param_ops cp_irqoff_ops = {
	.set = cp_set_irqoff,
	.get = param_get_uint,
};

static const struct kernel_param_ops cp_buffer_ops = {
	.set = cp_set_buffer,
	.get = param_get_uint,
};

static const struct kernel_param_ops cp_timeout_ops = {
	.set = cp_set_timeout,
	.get = param_get_uint,
};

module_param_cb(max_irqoff_us, &cp_irqoff_ops, &max_irqoff_us, 0644);
MODULE_PARM_DESC(max_irqoff_us,
		 "Longest interrupt-off window of a measurement, us (10-100000, default 2000)");
module_param_cb(max_buffer_mb, &cp_buffer_ops, &max_buffer_mb, 0644);
MODULE_PARM_DESC(max_buffer_mb,
		 "Largest measurement buffer, MiB (1-65536, default 256)");
module_param_cb(partner_timeout_ms, &cp_timeout_ops, &partner_timeout_ms,
		0644);
MODULE_PARM_DESC(partner_timeout_ms,
		 "How long a thread waits for a partner CPU, ms (10-600000, default 2000)");

/**
 * cp_param_max_irqoff_us() - the interrupt-off window bound
 *
 * Return: microseconds; read once per request.
 */
unsigned int cp_param_max_irqoff_us(void)
{
	return READ_ONCE(max_irqoff_us);
}

/**
 * cp_param_max_buffer_bytes() - the largest buffer a request may ask for
 *
 * Return: bytes.
 */
u64 cp_param_max_buffer_bytes(void)
{
	return (u64)READ_ONCE(max_buffer_mb) * SZ_1M;
}

/**
 * cp_param_partner_timeout_ms() - how long to wait for a partner thread
 *
 * Return: milliseconds.
 */
unsigned int cp_param_partner_timeout_ms(void)
{
	return READ_ONCE(partner_timeout_ms);
}

#ifdef CACHEPROBE_FAULT_INJECT
static unsigned int fault_inject;
module_param(fault_inject, uint, 0644);
MODULE_PARM_DESC(fault_inject,
		 "Test builds only: 1 = the last thread of a run never answers, 2 = buffer allocations fail, 4 = WBNOINVD treated as present (it runs as WBINVD), 8 = the last thread is bound to another CPU than requested, 16 = a run holds after its first sample until this bit is cleared");

/*
 * Slab and VmallocUsed move with everything else the kernel does, so they
 * cannot show one object leaked per request; this count can.
 */
static atomic_t live_objects = ATOMIC_INIT(0);

static int cp_get_live(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%d\n", atomic_read(&live_objects));
}

static int cp_set_live(const char *val, const struct kernel_param *kp)
{
	return -EPERM;
}

static const struct kernel_param_ops cp_live_ops = {
	.set = cp_set_live,
	.get = cp_get_live,
};

module_param_cb(live_objects, &cp_live_ops, NULL, 0444);
MODULE_PARM_DESC(live_objects,
		 "Test builds only: request buffers, value arrays, run states, chain orders, measurement buffers and threads not yet freed");

/**
 * cp_live_inc() - count an object the module now owns
 * @obj: what an allocation returned; NULL and ERR_PTR values are not counted
 */
void cp_live_inc(const void *obj)
{
	if (!IS_ERR_OR_NULL(obj))
		atomic_inc(&live_objects);
}

/**
 * cp_live_dec() - count an object the module is about to free
 * @obj: the object; NULL and ERR_PTR values are not counted
 */
void cp_live_dec(const void *obj)
{
	if (!IS_ERR_OR_NULL(obj))
		atomic_dec(&live_objects);
}

/*
 * A measured loop runs unseen: a register it overwrote without saying so
 * can make it walk one slot instead of the buffer, and the guests, with
 * no caches, cannot see that in the timings.  This count can.
 */
static atomic_t lost_places = ATOMIC_INIT(0);

static int cp_get_lost(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%d\n", atomic_read(&lost_places));
}

static const struct kernel_param_ops cp_lost_ops = {
	.set = cp_set_live,
	.get = cp_get_lost,
};

module_param_cb(lost_places, &cp_lost_ops, NULL, 0444);
MODULE_PARM_DESC(lost_places,
		 "Test builds only: ACCESS loops that did not end at the slot their count of accesses says");

/**
 * cp_lost_place() - count a measured loop that lost its slot index
 */
void cp_lost_place(void)
{
	atomic_inc(&lost_places);
}

/* A 64-bit count (kp->arg, an atomic64_t), read-only. */
static int cp_get_count64(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%lld\n",
			 (long long)atomic64_read((atomic64_t *)kp->arg));
}

static const struct kernel_param_ops cp_count64_ops = {
	.set = cp_set_live,
	.get = cp_get_count64,
};

/*
 * CHASE's warming walk (ABI 6) changes no value a reply carries, and the
 * guests have no caches to show it in the timings: this count of its
 * rounds shows that it ran, how far, and only when it should.
 */
static atomic64_t warm_rounds = ATOMIC64_INIT(0);

module_param_cb(warm_rounds, &cp_count64_ops, &warm_rounds, 0444);
MODULE_PARM_DESC(warm_rounds,
		 "Test builds only: rounds (one load of every chase) CHASE's walks before the first sample took");

/**
 * cp_warm_rounds() - count rounds of CHASE's warming walk
 * @rounds: rounds walked
 */
void cp_warm_rounds(u64 rounds)
{
	atomic64_add(rounds, &warm_rounds);
}

/*
 * CHASE's random waits before its samples change no value a reply
 * carries, and the guests' TSCs have no steps to show them against:
 * this count of their iterations shows that they ran, and at random.
 */
static atomic64_t dither_spins = ATOMIC64_INIT(0);

module_param_cb(dither_spins, &cp_count64_ops, &dither_spins, 0444);
MODULE_PARM_DESC(dither_spins,
		 "Test builds only: empty iterations CHASE waited before its samples, in all");

/**
 * cp_dither_spins() - count iterations of CHASE's waits before samples
 * @spins: iterations waited
 */
void cp_dither_spins(u64 spins)
{
	atomic64_add(spins, &dither_spins);
}

/**
 * cp_fault() - whether a test asked for a fault
 * @bit: a CP_FAULT_* bit
 *
 * Return: true when the fault_inject parameter has @bit set.
 */
bool cp_fault(unsigned int bit)
{
	return READ_ONCE(fault_inject) & bit;
}
#endif
