// SPDX-License-Identifier: GPL-2.0
#include "cli/evict_server.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "harness/interrupt.h"

#define COMMAND "evict"
#define REPLY_MAX 1024
/* How long a stop signal may wait for the server to notice it. */
#define STOP_CHECK_MS 100
/* A reply that is not the protocol's (CLI_PROCEED is -1). */
#define NO_ANSWER (-2)

static double now_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec * 1e9 + (double)now.tv_nsec;
}

static int address_of(const char *path, struct sockaddr_un *address)
{
	memset(address, 0, sizeof(*address));
	address->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(address->sun_path))
		return cli_usage_error(COMMAND,
				       "socket path '%s' is longer than %zu bytes",
				       path, sizeof(address->sun_path) - 1);
	strcpy(address->sun_path, path);
	return CLI_PROCEED;
}

static int connect_to(const struct sockaddr_un *address)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	if (connect(fd, (const struct sockaddr *)address, sizeof(*address))) {
		int err = errno;

		close(fd);
		return -err;
	}
	return fd;
}

/* A socket at @path that nobody answers on is a dead server's: remove it.
 * Anything else at @path is not ours to replace. */
static int clear_stale(const char *path, const struct sockaddr_un *address)
{
	struct stat st;
	int fd;

	if (lstat(path, &st))
		return errno == ENOENT ? CLI_PROCEED : cli_usage_error(COMMAND,
			"--serve: cannot look at '%s': %s", path, strerror(errno));
	if (!S_ISSOCK(st.st_mode))
		return cli_usage_error(COMMAND,
				       "--serve: '%s' exists and is not a socket: not replaced",
				       path);
	fd = connect_to(address);
	if (fd >= 0) {
		close(fd);
		return cli_usage_error(COMMAND,
				       "--serve: a server already answers at '%s'",
				       path);
	}
	if (unlink(path))
		return cli_usage_error(COMMAND, "--serve: cannot remove the dead socket '%s': %s",
				       path, strerror(errno));
	return CLI_PROCEED;
}

/* Bound and listening, for this user only; *@out is the socket. */
static int listen_at(const char *path, int *out, struct stat *bound)
{
	struct sockaddr_un address;
	int status = address_of(path, &address), fd;
	mode_t previous;

	if (status == CLI_PROCEED)
		status = clear_stale(path, &address);
	if (status != CLI_PROCEED)
		return status;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	previous = umask(077);
	if (fd < 0 || bind(fd, (struct sockaddr *)&address, sizeof(address)) ||
	    listen(fd, 16) || stat(path, bound)) {
		int err = errno;

		umask(previous);
		if (fd >= 0)
			close(fd);
		return cli_usage_error(COMMAND, "--serve: cannot listen at '%s': %s",
				       path, strerror(err));
	}
	umask(previous);
	*out = fd;
	return CLI_PROCEED;
}

static void answer(int fd, struct cacheprobe_ctx *ctx, const char *cpus)
{
	char request[16] = "", reply[REPLY_MAX];
	ssize_t got = read(fd, request, sizeof(request) - 1);
	double start;
	int ret, len;

	if (got <= 0 || strncmp(request, "evict\n", 6)) {
		len = snprintf(reply, sizeof(reply), "error %d unknown request\n",
			       EINVAL);
	} else {
		start = now_ns();
		ret = cacheprobe_evict(ctx);
		if (ret)
			len = snprintf(reply, sizeof(reply), "error %d %s\n",
				       -ret, cacheprobe_last_error());
		else
			len = snprintf(reply, sizeof(reply),
				       "ok %s %.0f %" PRIu64 " %s\n%s\n",
				       cacheprobe_method_name(cacheprobe_method(ctx)),
				       now_ns() - start,
				       cacheprobe_garbage_bytes(ctx), cpus,
				       cacheprobe_method_reason(ctx));
	}
	/* A client gone before the answer must not end the server. */
	if (len > 0 && send(fd, reply, (size_t)len, MSG_NOSIGNAL) < 0)
		return;
}

/* Remove the socket only while it is still the one this server made. */
static void remove_own(const char *path, const struct stat *bound)
{
	struct stat st;

	if (!lstat(path, &st) && st.st_ino == bound->st_ino &&
	    st.st_dev == bound->st_dev)
		unlink(path);
}

int evict_serve(const char *path, struct cacheprobe_ctx *ctx,
		const char *cpus, bool quiet)
{
	struct stat bound;
	int listener = -1, status = listen_at(path, &listener, &bound);

	if (status != CLI_PROCEED)
		return status;
	cp_interrupt_install();
	if (!quiet) {
		cli_print_line(stdout, 4,
			       "evict: serving %s on CPUs %s at %s until SIGINT or SIGTERM",
			       cacheprobe_method_name(cacheprobe_method(ctx)),
			       cpus, path);
		cli_print_line(stdout, 4, "  why: %s",
			       cacheprobe_method_reason(ctx));
		fflush(stdout);
	}
	while (!cp_interrupt_requested()) {
		struct pollfd waiting = { .fd = listener, .events = POLLIN };
		int fd;

		/* A stop signal between the look at the flag and a blocking
		 * accept would be lost: wait a bounded time, then look. */
		if (poll(&waiting, 1, STOP_CHECK_MS) <= 0)
			continue;
		fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		answer(fd, ctx, cpus);
		close(fd);
	}
	remove_own(path, &bound);
	close(listener);
	cp_interrupt_uninstall();
	return CLI_EXIT_OK;
}

static int parse_reply(char *reply, struct evict_report *report)
{
	char *reason = strchr(reply, '\n'), *fields[4], *save = NULL;
	int err;

	if (!strncmp(reply, "error ", 6)) {
		err = atoi(reply + 6);
		fprintf(stderr, "%s: %s: the server could not evict: %s", CLI_PROGRAM,
			COMMAND, strchr(reply + 6, ' ') ? strchr(reply + 6, ' ') + 1
							: reply);
		return err == EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
	}
	if (strncmp(reply, "ok ", 3) || !reason)
		return NO_ANSWER;
	*reason++ = '\0';
	reason[strcspn(reason, "\n")] = '\0';
	fields[0] = strtok_r(reply + 3, " ", &save);
	for (int i = 1; i < 4; i++)
		fields[i] = strtok_r(NULL, " ", &save);
	if (!fields[3])
		return NO_ANSWER;
	report->method = fields[0];
	report->outcome.evict_ns = strtod(fields[1], NULL);
	report->garbage_bytes = strtoull(fields[2], NULL, 10);
	report->cpus = fields[3];
	report->reason = reason;
	return CLI_PROCEED;
}

static int read_reply(int fd, char *buffer, size_t len)
{
	size_t used = 0;
	ssize_t got;

	while (used + 1 < len &&
	       (got = read(fd, buffer + used, len - used - 1)) > 0)
		used += (size_t)got;
	buffer[used] = '\0';
	return used ? 0 : -EPROTO;
}

int evict_request(const char *path, struct evict_report *report,
		  char *buffer, size_t len)
{
	struct sockaddr_un address;
	int status = address_of(path, &address), fd, ret;

	if (status != CLI_PROCEED)
		return status;
	fd = connect_to(&address);
	if (fd < 0) {
		fprintf(stderr,
			"%s: %s: --connect: no evict server at '%s' (%s); start one with '%s evict --serve %s'\n",
			CLI_PROGRAM, COMMAND, path, strerror(-fd), CLI_PROGRAM,
			path);
		return CLI_EXIT_FAILURE;
	}
	ret = write(fd, "evict\n", 6) == 6 ? read_reply(fd, buffer, len)
					    : -errno;
	close(fd);
	status = ret ? NO_ANSWER : parse_reply(buffer, report);
	if (status == NO_ANSWER) {
		fprintf(stderr, "%s: %s: --connect: '%s' gave no evict answer\n",
			CLI_PROGRAM, COMMAND, path);
		return CLI_EXIT_FAILURE;
	}
	return status;
}
