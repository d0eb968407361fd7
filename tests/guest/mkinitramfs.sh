#!/usr/bin/env bash
# Build the initramfs for a cacheprobe test guest.
#
#   mkinitramfs.sh OUT.cpio.gz --tests SCRIPT
#                  [--ko FILE.ko ...] [--bin FILE ...] [--file SRC:DEST ...]
#
# Contents (all owned by root in the archive, whoever runs this):
#   /init                     tests/guest/init (PID 1)
#   /tests.sh                 SCRIPT
#   /lib/cacheprobe/lib.sh    tests/guest/lib.sh (helpers for SCRIPT)
#   /lib/cacheprobe/*.ko      every --ko
#   /bin/busybox + a symlink per applet in /bin and /sbin
#   /usr/bin/NAME             every --bin, plus its shared libraries
#   /usr/sbin/genl            iproute2's genl, plus its shared libraries
#   /etc/passwd, /etc/group   root (0) and nobody/nogroup (65534)
#   DEST                      every --file SRC:DEST (files or directories)
#
# Shared libraries are found with ldd and copied to the same absolute path
# they have here (including the dynamic loader /lib64/ld-linux-x86-64.so.2),
# so the guest's loader finds them in its default search path without an
# ld.so.cache. The guest kernel is the host's distribution kernel, so host
# userspace binaries run unchanged.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
prog=${0##*/}

usage() {
    cat >&2 <<EOF
usage: $prog OUT.cpio.gz --tests SCRIPT [--ko FILE.ko ...] [--bin FILE ...] [--file SRC:DEST ...]
EOF
    exit 2
}

die() {
    echo "$prog: $*" >&2
    exit 1
}

out=
tests=
kos=()
bins=()
files=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --ko | --bin | --file | --tests)
            [[ $# -ge 2 ]] || usage
            case $1 in
                --ko) kos+=("$2") ;;
                --bin) bins+=("$2") ;;
                --file) files+=("$2") ;;
                --tests) tests=$2 ;;
            esac
            shift 2
            ;;
        -h | --help) usage ;;
        -*) echo "$prog: unknown option $1" >&2; usage ;;
        *)
            [[ -z $out ]] || usage
            out=$1
            shift
            ;;
    esac
done
[[ -n $out && -n $tests ]] || usage

busybox=/bin/busybox
genl=/usr/sbin/genl
for tool in cpio gzip ldd; do
    command -v "$tool" >/dev/null || die "$tool not found"
done
[[ -x $busybox ]] || die "$busybox missing (apt-get install busybox-static)"
[[ -x $genl ]] || die "$genl missing (apt-get install iproute2)"
[[ -f $tests ]] || die "test script $tests not found"
for f in "${kos[@]}" "${bins[@]}"; do
    [[ -f $f ]] || die "$f not found"
done

# The archive's modes come from the staged tree; a restrictive umask would
# make directories unreadable for the "nobody" tests.
umask 022
stage=$(mktemp -d "${TMPDIR:-/tmp}/cacheprobe-initramfs.XXXXXX")
out_tmp=$out.tmp.$$
trap 'rm -rf "$stage"; rm -f "$out_tmp"' EXIT
root=$stage/root
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,lib/cacheprobe,etc,proc,sys,dev,tmp,run,root}
chmod 1777 "$root/tmp"
chmod 0700 "$root/root"

# copy_with_libs SRC DEST: copy an executable and every shared library ldd
# reports for it.
copy_with_libs() {
    local src=$1 dest=$2 lddout line lib
    install -D -m 0755 "$src" "$root$dest"
    # ldd exits non-zero for static binaries ("not a dynamic executable");
    # glibc's ldd says "statically linked" for static-pie and exits 0.
    if ! lddout=$(LC_ALL=C ldd "$src" 2>&1); then
        if grep -q 'not a dynamic executable' <<<"$lddout"; then
            return 0
        fi
        die "ldd $src failed: $lddout"
    fi
    while IFS= read -r line; do
        case $line in
            *'=> not found'*) die "$src: missing library: ${line#"${line%%[![:space:]]*}"}" ;;
            *'=> /'*) lib=${line#*=> }; lib=${lib%% (*} ;;
            [[:space:]]/*) lib=${line#"${line%%[![:space:]]*}"}; lib=${lib%% (*} ;;
            *) continue ;; # linux-vdso.so.1 (kernel-provided), "statically linked"
        esac
        if [[ ! -e $root$lib ]]; then
            # install follows symlinks: the guest gets the real file under
            # the name the loader asks for.
            install -D -m 0755 "$lib" "$root$lib"
        fi
    done <<<"$lddout"
}

# busybox: one copy, applet symlinks in both /bin and /sbin so scripts work
# whichever directory they expect an applet in.
copy_with_libs "$busybox" /bin/busybox
while IFS= read -r applet; do
    [[ -n $applet && $applet != busybox ]] || continue
    ln -sf busybox "$root/bin/$applet"
    ln -sf ../bin/busybox "$root/sbin/$applet"
done < <("$busybox" --list)

copy_with_libs "$genl" /usr/sbin/genl

# --bin after busybox so a real binary replaces an applet symlink of the
# same name in /usr/bin (e.g. a full "timeout").
for b in "${bins[@]}"; do
    copy_with_libs "$b" "/usr/bin/${b##*/}"
done

for k in "${kos[@]}"; do
    install -m 0644 "$k" "$root/lib/cacheprobe/${k##*/}"
done

install -m 0644 "$here/lib.sh" "$root/lib/cacheprobe/lib.sh"
install -m 0755 "$here/init" "$root/init"
install -m 0755 "$tests" "$root/tests.sh"

cat >"$root/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
EOF
cat >"$root/etc/group" <<'EOF'
root:x:0:
nogroup:x:65534:
EOF
chmod 0644 "$root/etc/passwd" "$root/etc/group"

for spec in "${files[@]}"; do
    # Split at the last ":" so a source path may contain colons; the guest
    # destination must be absolute.
    [[ $spec == *:* ]] || die "--file wants SRC:DEST, got '$spec'"
    src=${spec%:*}
    dest=${spec##*:}
    [[ $dest == /* ]] || die "--file destination must be absolute: '$spec'"
    [[ -e $src ]] || die "--file source not found: $src"
    mkdir -p "$root$(dirname "$dest")"
    # -L: copy what links point to; we cannot rely on targets existing in
    # the guest. Ownership is normalised by cpio below, permissions are
    # widened so unprivileged test code can read what it was given.
    cp -RL --no-preserve=ownership "$src" "$root$dest"
    chmod -R a+rX "$root$dest"
done

# -R 0:0 writes root ownership into the archive headers, so the result is
# the same whether or not we run as root. "." itself is left out: the
# kernel's rootfs keeps its own 0755 root rather than mktemp's 0700.
(
    cd "$root"
    find . -mindepth 1 -print | LC_ALL=C sort |
        cpio --quiet -o -H newc -R 0:0
) | gzip -9 -n >"$out_tmp"
mv -f "$out_tmp" "$out"
