// SPDX-License-Identifier: GPL-2.0
/* cacheprobe_options: what cacheprobe_open() is asked for. */
#include "libcacheprobe/context.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "machine/cpuset.h"

struct cacheprobe_options *cacheprobe_options_new(void)
{
	struct cacheprobe_options *options = calloc(1, sizeof(*options));

	if (!options) {
		ctx_fail(ENOMEM, "no memory for the options");
		return NULL;
	}
	options->method = CACHEPROBE_METHOD_AUTO;
	options->garbage_factor = CACHEPROBE_DEFAULT_GARBAGE_FACTOR;
	ctx_clear_error();
	return options;
}

void cacheprobe_options_free(struct cacheprobe_options *options)
{
	if (!options)
		return;
	free(options->cpu_list);
	free(options);
}

int cacheprobe_options_set_method(struct cacheprobe_options *options,
				  enum cacheprobe_method method)
{
	if (!options)
		return ctx_fail(EINVAL, "no options given");
	if (!cacheprobe_method_name(method))
		return ctx_fail(EINVAL, "unknown method %d", (int)method);
	options->method = method;
	ctx_clear_error();
	return 0;
}

int cacheprobe_options_set_cpus(struct cacheprobe_options *options,
				const char *cpu_list)
{
	struct cp_cpuset *parsed;
	char why[128];
	char *copy;

	if (!options || !cpu_list)
		return ctx_fail(EINVAL, "no %s given",
				options ? "CPU list" : "options");
	if (cp_cpuset_parse(cpu_list, &parsed, why, sizeof(why)))
		return ctx_fail(EINVAL, "CPU list '%s': %s", cpu_list, why);
	cp_cpuset_free(parsed);
	copy = strdup(cpu_list);
	if (!copy)
		return ctx_fail(ENOMEM, "no memory for the CPU list");
	free(options->cpu_list);
	options->cpu_list = copy;
	ctx_clear_error();
	return 0;
}

int cacheprobe_options_set_garbage_factor(struct cacheprobe_options *options,
					  double factor)
{
	if (!options)
		return ctx_fail(EINVAL, "no options given");
	if (!isfinite(factor) || factor <= 0 ||
	    factor > CACHEPROBE_MAX_GARBAGE_FACTOR)
		return ctx_fail(EINVAL,
				"garbage factor %g: must be above 0 and at most %g",
				factor, CACHEPROBE_MAX_GARBAGE_FACTOR);
	options->garbage_factor = factor;
	ctx_clear_error();
	return 0;
}

int cacheprobe_options_set_transport(struct cacheprobe_options *options,
				     const char *transport)
{
	static const struct {
		const char *name;
		enum cp_transport transport;
	} names[] = {
		{ "auto", CP_TRANSPORT_AUTO },
		{ "netlink", CP_TRANSPORT_NETLINK },
		{ "ioctl", CP_TRANSPORT_IOCTL },
	};

	if (!options)
		return ctx_fail(EINVAL, "no options given");
	for (size_t i = 0; transport && i < sizeof(names) / sizeof(names[0]);
	     i++)
		if (!strcmp(transport, names[i].name)) {
			options->transport = names[i].transport;
			ctx_clear_error();
			return 0;
		}
	return ctx_fail(EINVAL,
			"unknown transport '%s' (auto, netlink or ioctl)",
			transport ? transport : "(null)");
}
