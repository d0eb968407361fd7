// SPDX-License-Identifier: GPL-2.0
/* Reaching the module for an area's kernel mode, as --mode asks. */
#include "areas/area.h"

#include <errno.h>
#include <stdio.h>

#include "client/privilege.h"

int area_module_refused(const struct cp_area_options *options,
			const char *area, int ret, struct cp_error *error)
{
	char why[sizeof(error->msg)];

	if (options->mode == CP_AREA_MODE_AUTO ||
	    options->mode == CP_AREA_MODE_USER)
		return 0;
	snprintf(why, sizeof(why), "%s", error->msg);
	return cp_error_set(error, -ret, "%s: --mode %s: %s", area,
			    options->mode == CP_AREA_MODE_KERNEL ? "kernel"
								 : "both",
			    why);
}

bool area_module_refuses_auto(const struct cp_area_options *options,
			      struct cp_client *client)
{
	return options->mode == CP_AREA_MODE_AUTO &&
	       !cp_client_may_measure(client);
}

int area_open_module(const struct cp_area_options *options,
		     const struct area_module_need *need,
		     struct cp_client **client, struct cp_module_info *info,
		     struct cp_error *error)
{
	int ret;

	*client = NULL;
	if (options->mode == CP_AREA_MODE_USER)
		return 0;
	ret = cp_client_open(options->transport, client, error);
	if (!ret)
		ret = cp_client_info(*client, info, error);
	else
		*client = NULL;
	if (!ret && info->abi_version < need->min_abi) {
		ret = cp_error_set(error, EOPNOTSUPP,
				   "the module (ABI %u) has no %s; update it",
				   info->abi_version, need->what);
		cp_module_info_free(info);
	} else if (!ret && area_module_refuses_auto(options, *client)) {
		cp_module_info_free(info);
		cp_client_close(*client);
		*client = NULL;
		return 0;
	}
	if (!ret)
		return 0;
	if (*client)
		cp_client_close(*client);
	*client = NULL;
	return area_module_refused(options, need->area, ret, error);
}
