// SPDX-License-Identifier: GPL-2.0
#include "cli/cli_util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "machine/environment.h"
#include "util/error.h"
#include "util/text_sink.h"

size_t cli_choice_list(const struct cli_choice *choices, size_t nr_choices,
		       char *buf, size_t len)
{
	struct cp_text_sink sink;

	cp_text_sink_init(&sink, buf, len);
	for (size_t i = 0; i < nr_choices; i++)
		cp_text_sink_printf(&sink, "%s%s", i ? ", " : "",
				    choices[i].name);
	return sink.used;
}

int cli_parse_choice(const char *text, const struct cli_choice *choices,
		     size_t nr_choices, int *out, char *why, size_t why_len)
{
	char valid[256];

	for (size_t i = 0; i < nr_choices; i++) {
		if (strcmp(text, choices[i].name) == 0) {
			*out = choices[i].value;
			return 0;
		}
	}
	cli_choice_list(choices, nr_choices, valid, sizeof(valid));
	return cp_why_invalid(why, why_len, "unknown value '%s' (valid: %s)", text,
		       valid);
}

const char *cli_choice_name(const struct cli_choice *choices,
			    size_t nr_choices, int value)
{
	for (size_t i = 0; i < nr_choices; i++)
		if (choices[i].value == value)
			return choices[i].name;
	return NULL;
}

int cli_usage_error(const char *command, const char *fmt, ...)
{
	va_list args;

	fprintf(stderr, "%s: ", CLI_PROGRAM);
	if (command)
		fprintf(stderr, "%s: ", command);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fprintf(stderr, "\nTry '%s%s%s --help'.\n", CLI_PROGRAM,
		command ? " " : "", command ? command : "");
	return CLI_EXIT_USAGE;
}

int cli_option_error(const char *command, int getopt_result, int bad_option,
		     const char *bad_argument)
{
	const char *problem = getopt_result == ':' ? "needs a value"
						   : "is unknown";

	/* A long option is best named as typed, without any "=value"; a short
	 * one by its letter, which getopt keeps in optopt. */
	if (bad_argument && strncmp(bad_argument, "--", 2) == 0)
		return cli_usage_error(command, "option '%.*s' %s",
				       (int)strcspn(bad_argument, "="),
				       bad_argument, problem);
	if (bad_option)
		return cli_usage_error(command, "option '-%c' %s",
				       (char)bad_option, problem);
	return cli_usage_error(command, "option '%s' %s",
			       bad_argument ? bad_argument : "?", problem);
}

void cli_report_error(const char *command, const struct cp_error *error)
{
	char number[32];

	fprintf(stderr, "%s: %s: %s (%s: %s)\n", CLI_PROGRAM, command,
		error->msg[0] ? error->msg : strerror(error->err),
		cp_errno_name(error->err, number, sizeof(number)),
		strerror(error->err));
}

int cli_exit_status_for(int err)
{
	return err == EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
}

void cli_print_environment_warnings(const struct cp_environment *env)
{
	struct cp_env_warning warnings[8];
	size_t count = cp_environment_warnings(env, warnings, 8);

	for (size_t i = 0; i < count && i < 8; i++)
		cli_print_line(stderr, 4, "%s: warning: %s", CLI_PROGRAM,
			       warnings[i].text);
}

void cli_print_wrapped(FILE *out, const char *text, size_t column,
		       size_t width, size_t indent)
{
	if (!width) {
		fprintf(out, "%s\n", text);
		return;
	}
	while (*text) {
		size_t room = width > column ? width - column : 1;
		size_t cut = strlen(text);

		if (cut > room) {
			cut = room;
			while (cut && text[cut] != ' ')
				cut--;
			if (!cut)
				cut = room;
		}
		fprintf(out, "%.*s\n", (int)cut, text);
		text += cut;
		while (*text == ' ')
			text++;
		if (*text)
			fprintf(out, "%*s", (int)indent, "");
		column = indent;
	}
}

void cli_print_line(FILE *out, size_t indent, const char *fmt, ...)
{
	char line[1024];
	va_list args;

	va_start(args, fmt);
	vsnprintf(line, sizeof(line), fmt, args);
	va_end(args);
	cli_print_wrapped(out, line, 0, isatty(fileno(out)) ? 80 : 0, indent);
}
