/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evict --serve and --connect: one process keeps a context open (the
 * garbage mapped and written, the readers started, the line timer
 * calibrated) and evicts whenever a client asks over a UNIX socket, so
 * that `hyperfine --prepare 'cacheprobe-run evict --connect S'` pays for
 * the eviction and a process start, not for setting up gigabytes of
 * garbage before every run.
 *
 * The protocol, one exchange per connection: the client sends "evict\n";
 * the server answers "ok METHOD EVICT_NS GARBAGE_BYTES CPUS\nREASON\n" or
 * "error ERRNO MESSAGE\n", and closes.
 */
#ifndef CACHEPROBE_EVICT_SERVER_H
#define CACHEPROBE_EVICT_SERVER_H

#include <stdbool.h>
#include <stddef.h>

#include "cacheprobe.h"
#include "cli/evict_output.h"

/*
 * Serve @ctx at @path until SIGINT, SIGTERM or SIGHUP; @cpus is the CPU
 * list clients are told.  The socket is made for this user only and
 * removed at the end; an existing path is replaced only when it is a
 * socket no server answers on.  An exit status.
 */
int evict_serve(const char *path, struct cacheprobe_ctx *ctx,
		const char *cpus, bool quiet);

/*
 * Ask the server at @path to evict; fill @report (its strings point into
 * @buffer, @len bytes).  CLI_PROCEED, or an exit status after saying why.
 */
int evict_request(const char *path, struct evict_report *report,
		  char *buffer, size_t len);

#endif
