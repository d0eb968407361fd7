// SPDX-License-Identifier: GPL-2.0
#include "cli/path_uses.h"

#include <string.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "results/path_target.h"

bool cli_path_is_stdout(const char *path)
{
	struct cp_path_target target;
	bool is_stdout;

	if (!path)
		return false;
	if (strcmp(path, "-") == 0)
		return true;
	if (cp_path_target_resolve(path, &target))
		return false;
	is_stdout = cp_path_target_is_fd(&target, STDOUT_FILENO);
	cp_path_target_free(&target);
	return is_stdout;
}

/* Whether @a and @b reach one file; a path that cannot be resolved is
 * left to the open that reports why. */
static bool same_file(const struct cli_path_use *a,
		      const struct cli_path_use *b)
{
	struct cp_path_target target_a, target_b;
	bool same = false;

	if (cp_path_target_resolve(a->path, &target_a))
		return false;
	if (!cp_path_target_resolve(b->path, &target_b)) {
		same = cp_path_target_same(&target_a, &target_b);
		cp_path_target_free(&target_b);
	}
	cp_path_target_free(&target_a);
	return same;
}

static int check_pair(const char *command, const struct cli_path_use *a,
		      const struct cli_path_use *b)
{
	bool a_stdout = !a->input && cli_path_is_stdout(a->path);
	bool b_stdout = !b->input && cli_path_is_stdout(b->path);

	if (a_stdout && b_stdout)
		return cli_usage_error(command,
				       "%s and %s both write to standard output ('%s' and '%s'); at most one output may go there",
				       a->option, b->option, a->path, b->path);
	if (a_stdout != b_stdout || !same_file(a, b))
		return CLI_PROCEED;
	if (a->input || b->input)
		return cli_usage_error(command,
				       "%s and %s name the same file ('%s' and '%s'): writing one would destroy the other",
				       a->option, b->option, a->path, b->path);
	return cli_usage_error(command,
			       "%s and %s name the same file ('%s' and '%s')",
			       a->option, b->option, a->path, b->path);
}

int cli_check_path_uses(const char *command, const struct cli_path_use *uses,
			size_t nr_uses)
{
	for (size_t a = 0; a < nr_uses; a++) {
		for (size_t b = a + 1; b < nr_uses; b++) {
			int status;

			if (!uses[a].path || !uses[b].path ||
			    (uses[a].input && uses[b].input))
				continue;
			status = check_pair(command, &uses[a], &uses[b]);
			if (status != CLI_PROCEED)
				return status;
		}
	}
	return CLI_PROCEED;
}
