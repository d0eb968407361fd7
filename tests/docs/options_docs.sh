#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every command, area and option of cacheprobe-run is documented and
# completes: for the top level and each command of '--help', every --OPTION
# its --help prints appears in the man page (as \-\-OPTION) and is offered
# by the bash completion; every command and area appears in the man page
# and completes; every option whose value is a LIST or SELECTION has its
# values in the completion; command by command, the options of its --help
# and of its subsection of the man page's OPTIONS are the same (the man
# page's "Every command" and, for run and bench, AREAS added).  An option
# added to the program but not to the documentation, or documented for a
# command that does not take it, fails here.  Prints TAP.
#
# Usage: options_docs.sh PATH-OF-cacheprobe-run
set -u
program=${1:?usage: options_docs.sh PATH-OF-cacheprobe-run}
top=$(cd "$(dirname "$0")/../.." && pwd)
man_page="$top/user/doc/cacheprobe-run.1"
completion="$top/user/completion/cacheprobe-run"
. "$top/tests/unit/tap.sh"

check() {
	if [ -n "$2" ]; then not_ok "$1: missing $2"; else ok "$1"; fi
}

# The completion's candidates for the words "$@" (the last one completed),
# run in a fresh bash with the program first in PATH.
complete_words() {
	local dir
	dir=$(cd "$(dirname "$program")" && pwd)
	PATH="$dir:$PATH" bash -c '
		source "$1" || exit 1
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_cacheprobe_run
		printf "%s\n" "${COMPREPLY[@]}"' _ "$completion" \
		"$(basename "$program")" "$@"
}

# The --options of a command's help ('' for the top level).
help_options() {
	# Only the lines that define options: prose may name other commands'.
	"$program" ${1:+"$1"} --help |
		sed -n 's/^ *\(-[A-Za-z0-9], \)\{0,1\}\(--[a-z0-9][a-z0-9-]*\).*/\2/p' |
		sort -u
}

# The --options a subsection of the man page's OPTIONS (or AREAS) defines:
# the tagged paragraphs' first lines, unescaped.
man_section_options() {
	awk -v want="$1" '/^\.S[HS] / { inside = ($0 == want) } inside' \
		"$man_page" | grep -A1 '^\.TP' |
		grep -oE '\\-\\-[a-z0-9][a-z0-9\\-]*' | sed 's/\\-/-/g' | sort -u
}

# The man page's subsection of a command's own options.
man_section_of() {
	case $1 in
	run | bench) echo ".SS run and bench" ;;
	*) echo ".SS $1" ;;
	esac
}

# The roff spelling of a name: every hyphen escaped.
roff() {
	printf '%s' "${1//-/\\-}"
}

commands=$("$program" --help |
	sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p')
areas=$("$program" --list | cut -d' ' -f1)
if [ -z "$commands" ] || [ -z "$areas" ]; then
	not_ok "read commands and areas from $program"
	exit 1
fi

for command in "" $commands; do
	label=${command:-top level}
	missing_man=
	missing_completion=
	offered=$(complete_words ${command:+"$command"} --)
	for option in $(help_options "$command"); do
		grep -qF -- "$(roff "$option")" "$man_page" ||
			missing_man+=" $option"
		grep -qxF -- "$option" <<<"$offered" ||
			missing_completion+=" $option"
	done
	check "$label options in the man page" "$missing_man"
	check "$label options completed" "$missing_completion"
done

# Command by command, the help and the man page list the same options:
# each option of 'COMMAND --help' is in the command's subsection, in
# "Every command" or (run and bench) in AREAS, and each option of the
# command's subsection is in its help.
every=$(man_section_options ".SS Every command")
areas_options=$(man_section_options ".SH AREAS")
for command in $commands; do
	own=$(man_section_options "$(man_section_of "$command")")
	documented="$own $every"
	case $command in run | bench) documented+=" $areas_options" ;; esac
	helped=$(help_options "$command")
	not_in_man=
	not_in_help=
	for option in $helped; do
		grep -qxF -- "$option" <(tr ' ' '\n' <<<"$documented") ||
			not_in_man+=" $option"
	done
	for option in $own; do
		grep -qxF -- "$option" <<<"$helped" || not_in_help+=" $option"
	done
	check "$command: its help's options in its man page section" \
		"$not_in_man"
	check "$command: its man page section's options in its help" \
		"$not_in_help"
done

missing_man=
missing_completion=
offered=$(complete_words "")
for word in $commands $areas; do
	grep -qE "^\.(B|TP|SS|BR) $(roff "$word")( |$)" "$man_page" ||
		missing_man+=" $word"
	grep -qxF -- "$word" <<<"$offered" || missing_completion+=" $word"
done
check "commands and areas in the man page" "$missing_man"
check "commands and areas completed" "$missing_completion"

# LIST and SELECTION values are not in the help's synopsis: the completion
# must list them.
missing=
for command in $commands; do
	while read -r option; do
		[ -n "$option" ] || continue
		[ -n "$(complete_words "$command" "$option" "")" ] ||
			missing+=" $command $option"
	done < <("$program" "$command" --help 2>/dev/null |
		grep -oE -- '--[a-z0-9-]+=(LIST|SELECTION)' | cut -d= -f1 | sort -u)
done
check "LIST and SELECTION options have completion values" "$missing"

first=$(complete_words ru)
if [ "$first" = run ]; then
	ok "'cacheprobe-run ru' completes to run"
else
	not_ok "'cacheprobe-run ru' completes to run (got '$first')"
fi
echo "1..$number"
[ "$failures" -eq 0 ]
