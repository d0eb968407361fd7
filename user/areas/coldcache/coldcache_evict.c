// SPDX-License-Identifier: GPL-2.0
/* The eviction methods of the coldcache area, one call each. */
#include "areas/coldcache/coldcache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "machine/usable_cpus.h"

static enum cacheprobe_flush_method module_method(enum cp_coldcache_method m)
{
	return m == CP_COLD_WBNOINVD ? CACHEPROBE_FLUSH_WBNOINVD
				     : CACHEPROBE_FLUSH_WBINVD;
}

bool cold_available(const struct cold_run *run,
		    enum cp_coldcache_method method, char *why, size_t len)
{
	switch (method) {
	case CP_COLD_CLFLUSH:
		if (run->flush != CP_FLUSH_NONE)
			return true;
		snprintf(why, len, "this CPU has neither CLFLUSHOPT nor CLFLUSH");
		return false;
	case CP_COLD_WBINVD:
	case CP_COLD_WBNOINVD:
		if (!run->client) {
			snprintf(why, len, "%s", run->client_why);
			return false;
		}
		if (method == CP_COLD_WBNOINVD && !run->wbnoinvd) {
			snprintf(why, len, "%s", run->wbnoinvd_why);
			return false;
		}
		return true;
	default:
		return true;
	}
}

uint64_t cold_bytes_read(const struct cold_run *run,
			 enum cp_coldcache_method method,
			 const struct cp_eviction_plan *plan)
{
	if (method == CP_COLD_GARBAGE_NAIVE)
		return run->plan.naive_bytes;
	if (method == CP_COLD_GARBAGE_PLANNED)
		return plan->read_bytes;
	return 0;
}

/* On every online CPU, or only those this process may use when it is
 * held to some: the working set's CPU is one of them either way. */
static int module_flush(struct cold_run *run, enum cp_coldcache_method method,
			struct cp_error *error)
{
	const struct cp_cpuset *cpus =
		cp_usable_restriction(run->context->topology);
	struct cp_cpu_time *times = NULL;
	size_t nr_times = 0;
	int ret = cp_client_flush(run->client, module_method(method), cpus,
				  &times, &nr_times, error);

	free(times);
	return ret;
}

int cold_evict(struct cold_run *run, enum cp_coldcache_method method,
	       const struct cp_eviction_plan *plan, const struct cp_chase *ws,
	       struct cp_error *error)
{
	const struct cp_topology *topology = run->context->topology;
	const struct cp_cpuset *cpus = run->context->options->cpus;
	int ret = 0;

	switch (method) {
	case CP_COLD_WARM:
		return 0;
	case CP_COLD_GARBAGE_NAIVE:
		ret = cp_garbage_naive(&run->garbage,
				       cpus ? cpus : topology->usable);
		break;
	case CP_COLD_GARBAGE_PLANNED:
		ret = cp_garbage_planned(&run->garbage, run->readers, plan);
		break;
	case CP_COLD_CLFLUSH:
		cp_flush_lines(run->flush, ws->buffer,
			       ws->nr_lines * ws->line_size, ws->line_size);
		return 0;
	case CP_COLD_WBINVD:
	case CP_COLD_WBNOINVD:
		return module_flush(run, method, error);
	default:
		return cp_error_set(error, EINVAL, "coldcache: unknown method");
	}
	if (ret == -EINTR)
		return ret;
	if (ret)
		return cp_error_set(error, -ret, "coldcache: %s failed",
				    cp_coldcache_method_name(method));
	return 0;
}
