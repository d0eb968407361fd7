// SPDX-License-Identifier: GPL-2.0
/* CPU sets as the ABI carries them: bitmaps of native-endian u64 words. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include "cacheprobe.h"

/**
 * cp_cpumask_from_abi() - decode and range-check a requested CPU set
 * @mask: receives the set
 * @bitmap: the ABI bitmap, @bytes long
 * @bytes: its length; a non-zero multiple of 8, at most
 *	CACHEPROBE_CPUMASK_MAX_BYTES
 * @attr: netlink attribute it came in, for the error report
 * @err: filled on failure
 *
 * Whether the CPUs are online is the operation's business (it must hold the
 * hotplug lock to rely on it); this only rejects ids no CPU can have.
 *
 * Return: 0, or -EINVAL with @err set.
 */
int cp_cpumask_from_abi(struct cpumask *mask, const void *bitmap,
			size_t bytes, int attr, struct cp_err *err)
{
	unsigned int nbits = bytes * BITS_PER_BYTE;
	unsigned int bad;
	unsigned long *bits;

	if (!bytes || bytes % sizeof(u64) ||
	    bytes > CACHEPROBE_CPUMASK_MAX_BYTES)
		return cp_fail(err, EINVAL, attr,
			       "CPU bitmap length must be a multiple of 8",
			       "%zu bytes given, at most %u", bytes,
			       CACHEPROBE_CPUMASK_MAX_BYTES);

	bits = bitmap_alloc(nbits, GFP_KERNEL);
	if (!bits)
		return cp_fail(err, ENOMEM, attr, "out of memory",
			       "CPU bitmap of %zu bytes", bytes);
	bitmap_from_arr64(bits, bitmap, nbits);

	bad = find_next_bit(bits, nbits, nr_cpu_ids);
	if (bad < nbits) {
		bitmap_free(bits);
		return cp_fail(err, EINVAL, attr, "CPU id out of range",
			       "CPU %u is not below nr_cpu_ids %u", bad,
			       nr_cpu_ids);
	}

	cpumask_clear(mask);
	bitmap_copy(cpumask_bits(mask), bits, min(nbits, nr_cpu_ids));
	bitmap_free(bits);
	return 0;
}

/**
 * cp_cpumask_to_abi() - encode a CPU set as an ABI bitmap
 * @bitmap: receives cp_cpumask_abi_bytes() bytes
 * @mask: the set
 */
void cp_cpumask_to_abi(void *bitmap, const struct cpumask *mask)
{
	bitmap_to_arr64(bitmap, cpumask_bits(mask), nr_cpu_ids);
}
