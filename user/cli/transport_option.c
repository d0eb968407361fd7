// SPDX-License-Identifier: GPL-2.0
#include "cli/transport_option.h"

#include "cli/cli_util.h"

static const struct cli_choice transport_choices[] = {
	{ "auto", CP_TRANSPORT_AUTO },
	{ "netlink", CP_TRANSPORT_NETLINK },
	{ "ioctl", CP_TRANSPORT_IOCTL },
};

int cli_parse_transport(const char *command, const char *text,
			enum cp_transport *out)
{
	char why[CACHEPROBE_MSG_MAX];
	int value;

	if (cli_parse_choice(text, transport_choices,
			     sizeof(transport_choices) /
			     sizeof(transport_choices[0]),
			     &value, why, sizeof(why)))
		return cli_usage_error(command, "--transport: %s", why);
	*out = (enum cp_transport)value;
	return 0;
}
