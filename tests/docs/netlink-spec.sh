#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The YAML netlink spec (include/netlink/specs/cacheprobe.yaml) against the
# uAPI header and the module, with the kernel's own YNL tooling from
# Debian's linux-source-6.12 package:
#   - the spec validates against the kernel's genetlink-c schema;
#   - ynl-gen-c.py renders a uAPI header from it, and every enum and
#     constant of that header has the same name and value as in
#     include/uapi/linux/cacheprobe.h, and the other way round;
#   - a spec with one attribute removed is caught (the check can fail);
#   - attribute types agree with the header's kernel-doc and with the
#     module's netlink policies.
# Prints "PASS name" / "FAIL name: why" lines; exits 1 on any failure.
#
# Usage: netlink-spec.sh [WORKDIR]   (default: a temporary directory)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/tests/docs"
spec="$top/include/netlink/specs/cacheprobe.yaml"
header="$top/include/uapi/linux/cacheprobe.h"
. "$here/linux-source.sh"

docs_workdir "${1:-}"

# Debian's python3 carries python3-yaml and python3-jsonschema; another
# python3 first in PATH may not.
python=
for candidate in python3 /usr/bin/python3; do
	if "$candidate" -c 'import yaml, jsonschema' 2>/dev/null; then
		python=$candidate
		break
	fi
done
if [ -z "$python" ]; then
	fail "netlink-spec-tools: no python3 with yaml and jsonschema (python3-yaml, python3-jsonschema)"
	exit 1
fi

docs_linux_source netlink-spec-tools MAINTAINERS tools/net/ynl \
	Documentation/netlink || exit 1
specs="$tree/Documentation/netlink/specs"
generator="$tree/tools/net/ynl/ynl-gen-c.py"

if "$python" - "$spec" "$tree/Documentation/netlink/genetlink-c.yaml" \
	>"$work/schema.log" 2>&1 <<'EOF'; then
import sys, yaml, jsonschema
spec = yaml.safe_load(open(sys.argv[1]))
if spec.get("protocol") != "genetlink-c":
    sys.exit("protocol is not genetlink-c")
jsonschema.validate(spec, yaml.safe_load(open(sys.argv[2])))
EOF
	pass "netlink-spec-schema (genetlink-c.yaml of $tree_name)"
else
	fail "netlink-spec-schema: $(tail -n 1 "$work/schema.log")"
fi

# The generator finds the schema beside specs/ and the tree by MAINTAINERS,
# so the spec is rendered from inside the extracted tree.
generate() {
	local in=$1 out=$2
	cp "$in" "$specs/cacheprobe.yaml"
	(cd "$tree/tools/net/ynl" && "$python" "$generator" --mode uapi \
		--header --spec "$specs/cacheprobe.yaml" -o "$out") \
		>"$out.log" 2>&1
}

if generate "$spec" "$work/generated.h"; then
	pass "netlink-spec-generate (ynl-gen-c.py --mode uapi)"
	"$python" "$here/spec_check.py" header "$header" "$work/generated.h" \
		"${CC:-gcc}" || failed=1
else
	fail "netlink-spec-generate: $(tail -n 1 "$work/generated.h.log")"
fi

# Drop one attribute (RETRIES) from the spec: the comparison must notice.
if ! "$python" "$here/spec_check.py" drop-attr "$spec" retries \
	>"$work/mutated.yaml"; then
	fail "netlink-spec-mismatch-detected: could not mutate the spec"
elif ! generate "$work/mutated.yaml" "$work/mutated.h"; then
	fail "netlink-spec-mismatch-detected: the mutated spec did not render"
elif "$python" "$here/spec_check.py" header "$header" "$work/mutated.h" \
	"${CC:-gcc}" >/dev/null; then
	fail "netlink-spec-mismatch-detected: a spec without RETRIES passed"
else
	pass "netlink-spec-mismatch-detected"
fi

"$python" "$here/spec_check.py" types "$spec" "$header" "$top/kmod/genl.c" ||
	failed=1
exit "$failed"
