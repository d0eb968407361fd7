/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One kernel-mode call sized to the module's interrupt-off window, for
 * every area that asks the module for samples of OPS operations (CHASE,
 * ACCESS, PINGPONG, BOUNCE).  A sample runs with interrupts off, so it
 * must end inside the module's window: the module refuses one that does
 * not with EOVERFLOW.  How long an operation takes is known only by
 * asking, so a call is made twice: a first request of a few operations and
 * one sample measures the slowest operation, and the real one asks for as
 * many operations as fill the sample's target time, at most half the
 * window (a sample slowed down by an SMI or a late partner still fits).
 * A request that overflows anyway is sent again with half the operations,
 * a few times.  --count fixes the operations instead: no first request.
 *
 * The area keeps its own parameters and client; the call reaches them
 * through a send callback and two fields of the parameters it changes.
 */
#ifndef CACHEPROBE_KERNEL_CALL_H
#define CACHEPROBE_KERNEL_CALL_H

#include <stdint.h>

#include "client/client.h"
#include "util/error.h"

/* A sample uses at most this share of the module's interrupt-off window. */
#define CP_KERNEL_CALL_WINDOW_SHARE 0.5
/* Operations of the first, sizing request when the call names none. */
#define CP_KERNEL_CALL_FIRST_OPS 1024u
/* Halvings tried when a sample does not fit in a window (EOVERFLOW). */
#define CP_KERNEL_CALL_RETRIES 4

struct cp_kernel_call {
	/* Send *@request as it is now: 0, or -errno with @error filled
	 * (-EOVERFLOW when a sample overflowed the window). */
	int (*send)(void *context, void *request, struct cp_run_result *result,
		    struct cp_error *error);
	void *context;		/* passed to send: the client, ... */
	void *request;		/* the area's parameters */
	uint32_t *ops;		/* in *request: operations per sample */
	uint32_t *samples;	/* in *request */
	uint32_t multiple;	/* ops stay a multiple of it; 0 or 1: any */
	uint32_t min_ops;	/* 0: multiple */
	uint32_t max_ops;	/* 0: CACHEPROBE_MAX_OPS */
	uint32_t first_ops;	/* 0: CP_KERNEL_CALL_FIRST_OPS */
	/* Sizing. */
	uint64_t fixed_ops;	/* --count; 0: sized by a first request */
	double target_ns;	/* of one sample */
	uint64_t max_irqoff_ns;	/* the module's window; 0: unknown */
	double tsc_hz;
};

/* @n between @call's min and max ops, rounded down to its multiple and at
 * least one multiple: what a fixed count or the first request asks for. */
uint32_t cp_kernel_call_within(const struct cp_kernel_call *call, uint64_t n);

/*
 * Operations per sample when one took @ticks_per_op (the slowest of the
 * first request): as many as fit in the target, at most
 * CP_KERNEL_CALL_WINDOW_SHARE of the window when it is known, at least 1,
 * then cp_kernel_call_within().  The first request's count when nothing
 * was measured (@ticks_per_op or tsc_hz not above 0).
 */
uint32_t cp_kernel_call_ops(const struct cp_kernel_call *call,
			    double ticks_per_op);

/* The operations to ask for after @ops overflowed the window: half,
 * rounded down to the multiple and at least that; 0 when @ops was already
 * no more than the multiple (give up).  Not held to min_ops. */
uint32_t cp_kernel_call_fewer_ops(const struct cp_kernel_call *call,
				  uint32_t ops);

/* The slowest ticks per operation over all series and samples of
 * @result; 0 without values or ops. */
double cp_kernel_call_slowest(const struct cp_run_result *result);

/*
 * Send the request as it is; while a sample overflows the window, send it
 * again with cp_kernel_call_fewer_ops(), at most CP_KERNEL_CALL_RETRIES
 * times, leaving *ops at the count last sent.  0 with @result filled
 * (release with cp_run_result_free; its ops are what ran), or the last
 * send's -errno (-EOVERFLOW when every try overflowed).
 */
int cp_kernel_call_fitted(const struct cp_kernel_call *call,
			  struct cp_run_result *result,
			  struct cp_error *error);

/*
 * The call of @samples samples: *ops the fixed count through
 * cp_kernel_call_within(), or sized from a fitted first request of
 * first_ops and 1 sample (cp_kernel_call_ops() of its slowest), then sent
 * fitted.  0 with @result filled, or -errno (the first request's, if that
 * failed) with @error filled.
 */
int cp_kernel_call_sized(const struct cp_kernel_call *call, uint32_t samples,
			 struct cp_run_result *result, struct cp_error *error);

#endif
