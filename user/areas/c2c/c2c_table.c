// SPDX-License-Identifier: GPL-2.0
#include "areas/c2c/c2c_table.h"

#include <string.h>

#include "cli/cli_util.h"
#include "cli/progress.h"
#include "results/atomic_file.h"
#include "areas/c2c/c2c_matrix.h"

void cli_print_c2c(FILE *out, const struct cp_results *results)
{
	struct cp_c2c_matrix *matrices;
	size_t nr;

	if (cp_c2c_matrices(results, &matrices, &nr) || !nr)
		return;
	fprintf(out, "\nc2c: core-to-core round trip\n");
	for (size_t i = 0; i < nr; i++)
		cp_c2c_matrix_print(out, &matrices[i],
				    cli_terminal_escapes(out));
	fprintf(out, "  per pair class (pair medians):\n");
	for (size_t i = 0; i < nr; i++)
		cp_c2c_summary_print(out, &matrices[i]);
	cp_c2c_matrices_free(matrices, nr);
}

int cli_write_c2c_matrix(const char *command, const char *path,
			 const struct cp_results *results)
{
	size_t len = path ? strlen(path) : 0;
	struct cp_c2c_matrix *matrices;
	struct cp_atomic_file file;
	size_t nr;
	int ret;

	if (!path)
		return CLI_EXIT_OK;
	ret = cp_c2c_matrices(results, &matrices, &nr);
	if (!ret && !nr) {
		fprintf(stderr, "%s: %s: --matrix: no c2c measurement to write\n",
			CLI_PROGRAM, command);
		return CLI_EXIT_FAILURE;
	}
	if (!ret)
		ret = cp_atomic_file_open(&file, path);
	if (!ret) {
		if (len > 5 && strcmp(path + len - 5, ".json") == 0)
			ret = cp_c2c_matrices_json(file.stream, matrices, nr);
		else
			cp_c2c_matrices_csv(file.stream, matrices, nr);
		ret = ret ? (cp_atomic_file_abort(&file), ret)
			  : cp_atomic_file_commit(&file);
	}
	cp_c2c_matrices_free(matrices, nr);
	if (ret) {
		fprintf(stderr, "%s: %s: cannot write %s: %s\n", CLI_PROGRAM,
			command, path, strerror(-ret));
		return CLI_EXIT_FAILURE;
	}
	return CLI_EXIT_OK;
}
