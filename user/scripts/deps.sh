#!/usr/bin/env bash
# Installs what cacheprobe needs from Debian's archive, only what is missing.
#   deps.sh build   compiler, libraries and (when the archive has them) the
#                   running kernel's headers
#   deps.sh test    everything `make check` uses, build included
#   deps.sh debug   what `make check-debug` adds: the 6.12 kernel source and
#                   what building a kernel takes
set -euo pipefail

build_pkgs=(build-essential pkg-config libnl-3-dev libnl-genl-3-dev
	libhwloc-dev libjson-c-dev kmod)
test_pkgs=(libcmocka-dev clang libclang-rt-14-dev qemu-system-x86
	busybox-static cpio iproute2 dkms bsdutils
	chromium chromium-driver python3-selenium
	linux-source-6.12 python3-yaml python3-jsonschema man-db groff-base
	# hwloc.pc names -ludev for static links: pkg-config --static
	# --libs cacheprobe, as tests/docs/library_api.sh links libcacheprobe.a
	libudev-dev
	libbenchmark-dev hyperfine
	linux-image-amd64 linux-headers-amd64
	linux-image-6.12-amd64 linux-headers-6.12-amd64
	linux-image-6.12-rt-amd64 linux-headers-6.12-rt-amd64)
debug_pkgs=(linux-source-6.12 bc bison flex libelf-dev libssl-dev xz-utils)

missing() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || echo "$p"
	done
}

updated=0
update_lists() {
	[ "$updated" -eq 1 ] && return 0
	apt-get update -q >/dev/null
	updated=1
}

install() {
	local -a want
	mapfile -t want < <(missing "$@")
	[ ${#want[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
		echo "deps: missing packages: ${want[*]} (install them as root)" >&2
		return 1
	fi
	echo "deps: installing ${want[*]}"
	update_lists
	# INITRD=No: the kernels are for guests booted with their own small
	# initramfs; Debian's, made for each kernel installed, takes minutes.
	DEBIAN_FRONTEND=noninteractive INITRD=No apt-get install -y -q \
		--no-install-recommends "${want[@]}" >/dev/null
}

# The running kernel's headers, if the archive has them (not every machine
# runs a Debian kernel; the module is then simply not built for it).
running_headers() {
	local pkg="linux-headers-$(uname -r)"
	[ -d "/lib/modules/$(uname -r)/build" ] && return 0
	[ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null || return 0
	update_lists
	if apt-cache show "$pkg" >/dev/null 2>&1; then
		install "$pkg" || true
	fi
}

case "${1:-}" in
build) install "${build_pkgs[@]}"; running_headers ;;
test) install "${build_pkgs[@]}" "${test_pkgs[@]}" ;;
debug) install "${build_pkgs[@]}" "${test_pkgs[@]}" "${debug_pkgs[@]}" ;;
*) echo "usage: $0 build|test|debug" >&2; exit 2 ;;
esac
