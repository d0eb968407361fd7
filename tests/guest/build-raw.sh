#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build one of the guests' raw ABI programs (the raw test, the fault
# driver, the fuzzers: SOURCE with rawnl.c, gcc -Werror) as OUTPUT; the
# compiler's messages go to standard error.
#
# Usage: build-raw.sh OUTPUT SOURCE
set -euo pipefail
if [[ $# -ne 2 ]]; then
	echo "usage: ${0##*/} OUTPUT SOURCE" >&2
	exit 2
fi
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
guest=$top/tests/guest
exec gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 \
	-I"$top/include/uapi" -I"$top/include" -I"$guest" -o "$1" "$2" \
	"$guest/rawnl.c"
