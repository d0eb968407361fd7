// SPDX-License-Identifier: GPL-2.0
#include "client/kernel_call.h"

#include <errno.h>
#include <math.h>

static uint32_t multiple_of(const struct cp_kernel_call *call)
{
	return call->multiple ? call->multiple : 1;
}

static uint32_t max_ops_of(const struct cp_kernel_call *call)
{
	return call->max_ops ? call->max_ops : CACHEPROBE_MAX_OPS;
}

/* @n rounded down to @multiple, at least @multiple. */
static uint32_t round_down(uint64_t n, uint32_t multiple)
{
	n -= n % multiple;
	return n < multiple ? multiple : (uint32_t)n;
}

uint32_t cp_kernel_call_within(const struct cp_kernel_call *call, uint64_t n)
{
	uint32_t min_ops = call->min_ops ? call->min_ops : multiple_of(call);

	if (n < min_ops)
		n = min_ops;
	if (n > max_ops_of(call))
		n = max_ops_of(call);
	return round_down(n, multiple_of(call));
}

static uint32_t first_ops(const struct cp_kernel_call *call)
{
	return cp_kernel_call_within(call, call->first_ops
						   ? call->first_ops
						   : CP_KERNEL_CALL_FIRST_OPS);
}

uint32_t cp_kernel_call_ops(const struct cp_kernel_call *call,
			    double ticks_per_op)
{
	double budget_ns = call->target_ns;
	double window_ns = (double)call->max_irqoff_ns *
			   CP_KERNEL_CALL_WINDOW_SHARE;
	double ops;

	if (!(ticks_per_op > 0) || !(call->tsc_hz > 0))
		return first_ops(call);
	if (call->max_irqoff_ns && window_ns < budget_ns)
		budget_ns = window_ns;
	ops = floor(budget_ns / (ticks_per_op * 1e9 / call->tsc_hz));
	if (!(ops >= 1))
		ops = 1;
	/* Before the conversion, which is undefined past uint64_t. */
	if (ops > max_ops_of(call))
		ops = max_ops_of(call);
	return cp_kernel_call_within(call, (uint64_t)ops);
}

uint32_t cp_kernel_call_fewer_ops(const struct cp_kernel_call *call,
				  uint32_t ops)
{
	uint32_t multiple = multiple_of(call);

	return ops > multiple ? round_down(ops / 2, multiple) : 0;
}

double cp_kernel_call_slowest(const struct cp_run_result *result)
{
	double slowest = 0;

	if (!result->ops)
		return 0;
	for (size_t c = 0; c < result->nr_series; c++)
		for (uint32_t s = 0; s < result->samples; s++) {
			double per = (double)result->series[c].values[s] /
				     (double)result->ops;

			if (per > slowest)
				slowest = per;
		}
	return slowest;
}

static int send(const struct cp_kernel_call *call,
		struct cp_run_result *result, struct cp_error *error)
{
	return call->send(call->context, call->request, result, error);
}

int cp_kernel_call_fitted(const struct cp_kernel_call *call,
			  struct cp_run_result *result,
			  struct cp_error *error)
{
	int ret = send(call, result, error);

	for (int i = 0; ret == -EOVERFLOW && i < CP_KERNEL_CALL_RETRIES; i++) {
		uint32_t fewer = cp_kernel_call_fewer_ops(call, *call->ops);

		if (!fewer)
			break;
		*call->ops = fewer;
		ret = send(call, result, error);
	}
	return ret;
}

/* *ops for the call from a first request of one sample. */
static int size(const struct cp_kernel_call *call, struct cp_error *error)
{
	struct cp_run_result first;
	int ret;

	*call->ops = first_ops(call);
	*call->samples = 1;
	ret = cp_kernel_call_fitted(call, &first, error);
	if (ret)
		return ret;
	*call->ops = cp_kernel_call_ops(call, cp_kernel_call_slowest(&first));
	cp_run_result_free(&first);
	return 0;
}

int cp_kernel_call_sized(const struct cp_kernel_call *call, uint32_t samples,
			 struct cp_run_result *result, struct cp_error *error)
{
	int ret;

	if (call->fixed_ops) {
		*call->ops = cp_kernel_call_within(call, call->fixed_ops);
	} else {
		ret = size(call, error);
		if (ret)
			return ret;
	}
	*call->samples = samples;
	return cp_kernel_call_fitted(call, result, error);
}
