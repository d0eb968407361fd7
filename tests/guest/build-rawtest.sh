#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the guests' raw ABI test (rawtest.c with rawnl.c, gcc -Werror) as
# OUTPUT; the compiler's messages go to standard error.
#
# Usage: build-rawtest.sh OUTPUT
set -euo pipefail
if [[ $# -ne 1 ]]; then
	echo "usage: ${0##*/} OUTPUT" >&2
	exit 2
fi
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
guest=$top/tests/guest
exec gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 \
	-I"$top/include/uapi" -o "$1" "$guest/rawtest.c" "$guest/rawnl.c"
