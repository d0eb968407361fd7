#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# hyperfine times sum-file over one file, cold and warm: the cold command's
# --prepare is 'cacheprobe-run evict --quiet' (the caches of every CPU
# emptied before each run), the warm one's is 'true', so both sides start
# a process before each run and differ only by the eviction.
#
# Usage: cold-vs-warm.sh [--size KIB] [--runs N] [--warmup N] [--json FILE]
#   --size    the file's size (default 4096 KiB)
#   --runs    timed runs of each command (default 20)
#   --warmup  untimed runs before them (default 2)
#   --json    hyperfine's JSON export (default hyperfine.json)
# CACHEPROBE_RUN and SUM_FILE name the two programs (default:
# cacheprobe-run from PATH, sum-file beside this script).
set -euo pipefail

size=4096
runs=20
warmup=2
json=hyperfine.json
while [ $# -gt 0 ]; do
	case $1 in
	--size | --runs | --warmup | --json)
		[ $# -ge 2 ] || { echo "$0: $1 needs a value" >&2; exit 2; }
		declare "${1#--}=$2"
		shift 2 ;;
	*) echo "usage: $0 [--size KIB] [--runs N] [--warmup N] [--json FILE]" >&2
		exit 2 ;;
	esac
done

evict=${CACHEPROBE_RUN:-cacheprobe-run}
sum=${SUM_FILE:-$(dirname "$0")/sum-file}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -c "$((size * 1024))" /dev/urandom >"$work/data"

# -N: no shell between hyperfine and the command, whose whole run is a
# millisecond or so; a shell's start would be most of what is timed.
hyperfine -N --runs "$runs" --warmup "$warmup" --export-json "$json" \
	--command-name cold --prepare "'$evict' evict --quiet" \
	"'$sum' '$work/data'" \
	--command-name warm --prepare true \
	"'$sum' '$work/data'"
