#!/usr/bin/env bash
# List the Debian kernels installed on this machine that the guest harness
# can boot AND build modules for, one per line:
#
#   LABEL VER VMLINUZ HEADERS_DIR
#
# e.g.  6.12-rt 6.12.117+deb12-rt-amd64 /boot/vmlinuz-6.12.117+deb12-rt-amd64 /lib/modules/6.12.117+deb12-rt-amd64/build
#
# LABEL is the short flavour used in test output: major.minor of VER, plus
# "-FLAVOUR" when VER carries one ("-rt-amd64" -> "-rt", "-cloud-amd64" ->
# "-cloud"). ABI numbers are never hard-coded: everything is discovered from
# /lib/modules and /boot, so a Debian point-release kernel bump needs no edit.
#
# A kernel is listed only when both /boot/vmlinuz-VER and a usable
# /lib/modules/VER/build exist (an image without headers can be booted but we
# could not build cacheprobe.ko for it; headers without an image are useless
# here). The running kernel gets no special treatment: if it qualifies it is
# listed like any other.
#
# If two ABI versions of the same flavour are installed (e.g. during an
# upgrade), the newest keeps the short LABEL and older ones get
# "LABEL:VER", so labels stay unique in test output.
set -euo pipefail

usage() {
    echo "usage: ${0##*/} [LABEL]" >&2
    echo "  prints: LABEL VER VMLINUZ HEADERS_DIR   (one line per bootable kernel with headers;" >&2
    echo "  with LABEL, that kernel's line alone, exit status 1 when there is none)" >&2
}

if [[ $# -gt 1 ]]; then
    usage
    exit 2
fi
want=${1:-}

# Debian kernel release strings look like
#   6.1.0-56-amd64            (major.minor.patch-ABI-arch)
#   6.12.117+deb12-amd64      (backports style, no separate ABI number)
#   6.12.117+deb12-rt-amd64   (with a flavour)
# Group 1 = major.minor, group 4 = optional flavour.
re='^([0-9]+\.[0-9]+)[^-]*(-[0-9]+)?(-([a-z][a-z0-9]*))?-amd64$'

rows=()
shopt -s nullglob
for moddir in /lib/modules/*/; do
    moddir=${moddir%/}
    ver=${moddir##*/}
    vmlinuz=/boot/vmlinuz-$ver
    headers=$moddir/build
    [[ -f $vmlinuz ]] || continue
    # "build" is normally a symlink into /usr/src; -f on the Makefile proves
    # the link target (the headers package) is really installed.
    [[ -f $headers/Makefile ]] || continue
    if [[ ! $ver =~ $re ]]; then
        # Not a Debian amd64 kernel: we cannot derive a meaningful label.
        echo "${0##*/}: skipping kernel with unrecognised version '$ver'" >&2
        continue
    fi
    label=${BASH_REMATCH[1]}
    if [[ -n ${BASH_REMATCH[4]} ]]; then
        label+=-${BASH_REMATCH[4]}
    fi
    rows+=("$label $ver $vmlinuz $headers")
done

if [[ ${#rows[@]} -eq 0 ]]; then
    echo "${0##*/}: no kernel with both /boot/vmlinuz-VER and /lib/modules/VER/build found" >&2
    exit 1
fi

# Sort by label then by version (both version-aware), newest version of a
# label last, then rename all but the newest of each label.
printf '%s\n' "${rows[@]}" | sort -k1,1V -k2,2V | awk -v want="$want" '
    { label[NR] = $1; line[NR] = $0; last[$1] = NR }
    END {
        for (i = 1; i <= NR; i++) {
            split(line[i], f, " ")
            # an older duplicate gets a unique label
            out = last[label[i]] != i ? f[1] ":" f[2] " " f[2] " " f[3] " " f[4] : line[i]
            split(out, g, " ")
            if (want == "" || g[1] == want) {
                print out
                found = 1
            }
        }
        if (want != "" && !found) {
            print "kernels.sh: no installed kernel with headers labelled " want > "/dev/stderr"
            exit 1
        }
    }'
