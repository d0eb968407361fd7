#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# libcacheprobe against its contract, include/cacheprobe.h:
#   - libcacheprobe.so exports the header's functions and nothing else,
#     each listed in the version script under one of its version nodes,
#     and libcacheprobe.a defines no global symbol but those functions (the
#     internal cp_* ones stay hidden from a program linking it statically);
#   - every function of the header has a section-3 page of its own name
#     (user/doc/FUNCTION.3, a .so link for grouped functions) whose NAME
#     lists it and whose SYNOPSIS has the header's prototype; every page
#     renders without warnings;
#   - the header compiles alone as C99, C11, C++11 and C++17 with every
#     warning an error, and a C++ program links against the shared library
#     and runs;
#   - make install-lib into a DESTDIR: the header, both libraries (soname
#     links included), cacheprobe.pc and the man3 pages are installed; a
#     program built with nothing but pkg-config's flags against that tree,
#     once shared and once static, opens a GARBAGE context on one CPU,
#     evicts and closes; every installed page renders and man finds each
#     function's; the complete programs of the pages' EXAMPLES build against
#     the tree and run.
# The functions are the compiler's reading of the header (gcc -aux-info),
# so a prototype over several lines counts like any other.
# Prints "PASS name" / "FAIL name: why" lines; exits 1 on any failure.
#
# Usage: library_api.sh [WORKDIR]   (default: a temporary directory)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/tests/docs"
header="$top/include/cacheprobe.h"
map="$top/user/libcacheprobe/libcacheprobe.map"
build="$top/user/build"
doc="$top/user/doc"
# Installed as a distribution's package would be.
prefix=/usr
failed=0

pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; failed=1; }

if [ -n "${1:-}" ]; then
	work=$1
	rm -rf "$work"
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi

# The pages are rendered as a reader's terminal would, the same each time.
export LC_ALL=C.UTF-8 MANWIDTH=80

# words: the arguments, space-separated, for messages.
words() {
	echo "$*"
}

# normalize: C declarations or rendered text on stdin, one line out with
# the spacing that differs between a header and a rendered page taken away
# (line breaks, alignment, spaces around '*', '(' and ')').
normalize() {
	perl -0777 -ne 's/\s+/ /g; s/\s*\*\s*/*/g; s/\(\s+/(/g; s/\s+\)/)/g;
		s/\s+,/,/g; s/^ //; s/ $//; print'
}

# ---------------------------------------------------------------------------
# The header's functions, as the compiler reads them: each line of
# -aux-info names one function declared in some header, with its file.
printf '#include <cacheprobe.h>\n' >"$work/header-only.c"
if ! gcc -std=c11 -I"$top/include" -fsyntax-only -aux-info "$work/aux.txt" \
	"$work/header-only.c" 2>"$work/aux.err"; then
	fail "header-functions: the header does not compile: $(head -n 3 "$work/aux.err")"
	exit 1
fi
# Declarations "extern": the library must export them.  A static inline
# function of the header needs a page but is not exported.
mapfile -t functions < <(awk -v h="/* $header:" 'index($0, h) == 1' \
	"$work/aux.txt" | sed -E 's/^\/\*[^*]*\*\/ [^(]*[^[:alnum:]_]([[:alnum:]_]+) \(.*/\1/')
mapfile -t externs < <(awk -v h="/* $header:" 'index($0, h) == 1' \
	"$work/aux.txt" | grep -F '*/ extern ' |
	sed -E 's/^\/\*[^*]*\*\/ [^(]*[^[:alnum:]_]([[:alnum:]_]+) \(.*/\1/')
if [ ${#functions[@]} -eq 0 ]; then
	fail "header-functions: gcc -aux-info found no function in include/cacheprobe.h"
	exit 1
fi
pass "header-functions (${#functions[@]} functions, ${#externs[@]} to export)"
declare -A in_header=()
for f in "${functions[@]}"; do in_header[$f]=1; done

# The version script: "node NAME" per version node, "global NAME" or
# "local NAME" per entry (comments removed).
map_entries() {
	perl -0777 -ne 's{/\*.*?\*/}{}gs; s{#[^\n]*}{}g;
		while (/([A-Za-z_][\w.]*)\s*\{(.*?)\}\s*[\w.]*\s*;/gs) {
			my ($node, $body, $section) = ($1, $2, "global");
			print "node $node\n";
			for my $item (split /;/, $body) {
				$item =~ s/^\s+|\s+$//g;
				if ($item =~ /^(global|local)\s*:\s*(.*)$/s) {
					$section = $1;
					$item = $2;
				}
				print "$section $item\n" if length $item;
			}
		}' "$map"
}
declare -A map_nodes=() map_global=()
if [ -f "$map" ]; then
	while read -r kind name; do
		case $kind in
		node) map_nodes[$name]=1 ;;
		global) map_global[$name]=1 ;;
		esac
	done < <(map_entries)
fi

# ---------------------------------------------------------------------------
# The libraries, built from the current sources.
if make -C "$top/user" lib >"$work/build.log" 2>&1; then
	pass "library-build (make -C user lib)"
else
	fail "library-build: make -C user lib failed: $(tail -n 1 "$work/build.log")"
fi
so="$build/libcacheprobe.so"
archive="$build/libcacheprobe.a"

if [ ${#map_nodes[@]} -eq 0 ]; then
	fail "map-parses: no version node in user/libcacheprobe/libcacheprobe.map"
else
	bad=()
	for name in "${!map_global[@]}"; do
		[ -n "${in_header[$name]:-}" ] || bad+=("$name")
	done
	if [ ${#bad[@]} -eq 0 ]; then
		pass "map-lists-header-functions (${#map_global[@]} global entries in ${!map_nodes[*]})"
	else
		fail "map-lists-header-functions: the version script exports what the header does not declare: $(words "${bad[@]}")"
	fi
fi

# Exported: "ADDRESS TYPE NAME@@NODE"; the version node itself is an
# absolute symbol of the node's name.
if [ ! -f "$so" ]; then
	fail "exports: no user/build/libcacheprobe.so"
else
	declare -A exported=()
	not_header=() not_map=() not_function=() unversioned=()
	while read -r _ type symbol; do
		name=${symbol%%@*}
		version=${symbol##*@}
		[ "$symbol" = "$name" ] && version=
		if [ "$type" = A ] && [ -n "${map_nodes[$name]:-}" ]; then
			continue
		fi
		exported[$name]=1
		[ -n "${in_header[$name]:-}" ] || not_header+=("$name")
		[ -n "${map_global[$name]:-}" ] || not_map+=("$name")
		[ "$type" = T ] || not_function+=("$name($type)")
		[ -n "$version" ] && [ -n "${map_nodes[$version]:-}" ] ||
			unversioned+=("$symbol")
	done < <(nm -D --defined-only "$so")
	if [ ${#not_header[@]} -eq 0 ]; then
		pass "exports-declared (${#exported[@]} exported, each in include/cacheprobe.h)"
	else
		fail "exports-declared: exported but not declared in include/cacheprobe.h: $(words "${not_header[@]}")"
	fi
	if [ ${#not_map[@]} -eq 0 ]; then
		pass "exports-in-version-script"
	else
		fail "exports-in-version-script: exported but not listed in libcacheprobe.map: $(words "${not_map[@]}")"
	fi
	if [ ${#not_function[@]} -eq 0 ] && [ ${#unversioned[@]} -eq 0 ]; then
		pass "exports-versioned-functions (code symbols, each of a node of the map)"
	else
		fail "exports-versioned-functions: not code: $(words "${not_function[@]}"); without a node of the map: $(words "${unversioned[@]}")"
	fi
	missing=()
	for f in "${externs[@]}"; do
		[ -n "${exported[$f]:-}" ] || missing+=("$f")
	done
	if [ ${#missing[@]} -eq 0 ]; then
		pass "header-functions-exported (all ${#externs[@]})"
	else
		fail "header-functions-exported: declared in the header, not exported: $(words "${missing[@]}")"
	fi
fi

# The static library: a program linking it meets no name of ours but the
# header's.
if [ ! -f "$archive" ]; then
	fail "static-globals: no user/build/libcacheprobe.a"
else
	declare -A defined=()
	leaked=()
	while read -r _ type name; do
		defined[$name]=1
		[ -n "${in_header[$name]:-}" ] || leaked+=("$name($type)")
	done < <(nm -g --defined-only "$archive" 2>/dev/null | awk 'NF == 3')
	if [ ${#defined[@]} -eq 0 ]; then
		fail "static-globals: nm finds no global symbol in libcacheprobe.a"
	elif [ ${#leaked[@]} -eq 0 ]; then
		pass "static-globals (libcacheprobe.a defines ${#defined[@]} globals, each a function of the header)"
	else
		fail "static-globals: libcacheprobe.a defines ${#leaked[@]} global symbols outside the header: $(words "${leaked[@]:0:12}")$([ ${#leaked[@]} -gt 12 ] && echo ' ...')"
	fi
	missing=()
	for f in "${externs[@]}"; do
		[ -n "${defined[$f]:-}" ] || missing+=("$f")
	done
	if [ ${#missing[@]} -eq 0 ]; then
		pass "static-complete (libcacheprobe.a defines all ${#externs[@]})"
	else
		fail "static-complete: libcacheprobe.a lacks: $(words "${missing[@]}")"
	fi
fi

# ---------------------------------------------------------------------------
# The pages.  A page holding only ".so man3/OTHER.3" is a link to OTHER.3.
link_target() {
	sed -n '1s/^\.so man3\/\(.*\)$/\1/p' "$1"
}

# The header's prototype of each function, one "NAME<TAB>PROTOTYPE" line:
# comments and preprocessor lines removed, the rest cut at ';', '{' and '}'.
perl -0777 -ne 's{/\*.*?\*/}{ }gs; s{//[^\n]*}{}g; s{^\s*#(?:[^\n]*\\\n)*[^\n]*}{}gm;
	for my $decl (split /[;{}]/) {
		$decl =~ s/\s+/ /g;
		print "$1\t$decl\n" if $decl =~ /(\w+)\s*\(/;
	}' "$header" | while IFS=$'\t' read -r name decl; do
	[ -n "${in_header[$name]:-}" ] && printf '%s\t%s\n' "$name" \
		"$(normalize <<<"$decl")"
done >"$work/prototypes.txt"

# synopsis PAGE: the SYNOPSIS section of the rendered PAGE, normalized;
# rendered once per page (man takes a while, and pages are shared).
synopsis() {
	local saved="$work/synopsis-${1##*/}"
	[ -f "$saved" ] ||
		man -l "$1" 2>/dev/null |
		awk '/^SYNOPSIS/ { on = 1; next } on && /^[^ ]/ { exit } on' |
		normalize >"$saved"
	cat "$saved"
}

missing=()
for f in "${functions[@]}"; do
	page="$doc/$f.3"
	if [ ! -f "$page" ]; then
		fail "man-page $f: no user/doc/$f.3"
		missing+=("$f")
		continue
	fi
	target=$(link_target "$page")
	if [ -n "$target" ]; then
		if [ ! -f "$doc/$target" ]; then
			fail "man-page $f: user/doc/$f.3 links to $target, which is not in user/doc"
			continue
		fi
		page="$doc/$target"
	fi
	name_line=$(awk '/^\.SH NAME/ { on = 1; next } on && /^\.SH/ { exit }
		on' "$page" | tr '\n' ' ')
	if ! grep -qE "(^|[ ,])$f([ ,]|$)" <<<"$name_line"; then
		fail "man-name $f: not in the NAME section of user/doc/${page##*/}"
	fi
	prototype=$(awk -F '\t' -v f="$f" '$1 == f { print $2; exit }' \
		"$work/prototypes.txt")
	if [ -z "$prototype" ]; then
		fail "man-synopsis $f: no prototype found in the header"
	elif [[ $(synopsis "$page") != *"$prototype"* ]]; then
		fail "man-synopsis $f: the SYNOPSIS of user/doc/${page##*/} lacks the header's prototype '$prototype' (spacing aside)"
	fi
done
[ ${#missing[@]} -eq 0 ] &&
	pass "man-pages (each of the ${#functions[@]} functions has user/doc/FUNCTION.3)"

# check_page PAGE LABEL: PAGE renders without a warning, with its title
# and a NAME section.  A link (".so man3/OTHER.3") is read from the top of
# its manual tree, as man reads it.
check_page() {
	local page=$1 label=$2 title warnings rendered source=$1 target
	local tree=${1%/*}/..
	target=$(link_target "$page")
	[ -n "$target" ] && source="$tree/man3/$target"
	title=$(sed -n 's/^\.TH \([^ ]*\) .*/\1/p' "$source" | head -n 1)
	warnings=$(cd "$tree" && groff -ww -z -man "$page" 2>&1)
	rendered=$(cd "$tree" && man --warnings -l "$page" 2>"$work/man.err")
	if [ -n "$warnings" ] || [ -s "$work/man.err" ]; then
		fail "$label: $warnings $(head -n 3 "$work/man.err")"
	elif ! grep -q "^$title(3)" <<<"$rendered" ||
		! grep -q '^NAME' <<<"$rendered"; then
		fail "$label: no $title(3) header or NAME section"
	else
		return 0
	fi
	return 1
}

pages=0 links=0 bad=0
for page in "$doc"/*.3; do
	target=$(link_target "$page")
	if [ -n "$target" ]; then
		links=$((links + 1))
		[ -f "$doc/$target" ] || {
			fail "man-renders ${page##*/}: links to $target, not in user/doc"
			bad=1
		}
	else
		pages=$((pages + 1))
		check_page "$page" "man-renders ${page##*/}" || bad=1
	fi
done
[ "$bad" -eq 0 ] &&
	pass "man-renders ($pages pages and $links links in user/doc, no warnings)"

# ---------------------------------------------------------------------------
# The header alone, included twice (its guard), in C and C++.
printf '#include <cacheprobe.h>\n#include <cacheprobe.h>\n' >"$work/alone.c"
cp "$work/alone.c" "$work/alone.cc"
for std in c99 c11 c++11 c++17; do
	compiler=gcc source="$work/alone.c"
	[[ $std == c++* ]] && compiler=g++ source="$work/alone.cc"
	if "$compiler" -std="$std" -Wall -Wextra -Werror -pedantic \
		-I"$top/include" -c -o "$work/alone-$std.o" "$source" \
		2>"$work/alone-$std.err"; then
		pass "header-alone $std"
	else
		fail "header-alone $std: $(head -n 3 "$work/alone-$std.err")"
	fi
done

# C++ calling the library: the names must not be mangled, the enum must
# convert both ways.  Only what the header promises without a context.
cat >"$work/cplusplus.cc" <<'EOF'
#include <cacheprobe.h>
#include <cerrno>
#include <cstdio>
#include <cstring>

int main()
{
	enum cacheprobe_method method;
	struct cacheprobe_options *options = cacheprobe_options_new();

	if (!options || cacheprobe_method_from_name("garbage", &method) ||
	    method != CACHEPROBE_METHOD_GARBAGE ||
	    std::strcmp(cacheprobe_method_name(method), "garbage") ||
	    cacheprobe_options_set_method(options, method))
		return 1;
	if (cacheprobe_options_set_garbage_factor(options, 0.0) != -EINVAL ||
	    !*cacheprobe_last_error())
		return 2;
	cacheprobe_options_free(options);
	std::printf("%s\nOK\n", cacheprobe_version());
	return 0;
}
EOF
if ! g++ -std=c++17 -Wall -Wextra -Werror -pedantic -I"$top/include" \
	-o "$work/cplusplus" "$work/cplusplus.cc" -L"$build" -lcacheprobe \
	-Wl,-rpath,"$build" 2>"$work/cplusplus.err"; then
	fail "cplusplus-links: $(head -n 3 "$work/cplusplus.err")"
elif ! readelf -d "$work/cplusplus" | grep -q 'NEEDED.*\[libcacheprobe\.so'; then
	fail "cplusplus-links: the program does not need libcacheprobe.so"
else
	out=$("$work/cplusplus" 2>&1)
	status=$?
	if [ "$status" -eq 0 ] && [ "${out##*$'\n'}" = OK ]; then
		pass "cplusplus-links (g++ -std=c++17 against libcacheprobe.so, runs)"
	else
		fail "cplusplus-links: status $status: $(tr '\n' ' ' <<<"$out")"
	fi
fi

# ---------------------------------------------------------------------------
# make install-lib into a DESTDIR, and a program built against it with
# nothing but pkg-config's flags.
dest="$work/root"
root="$dest$prefix"
if ! make -C "$top" install-lib DESTDIR="$dest" PREFIX="$prefix" \
	>"$work/install-lib.log" 2>&1; then
	if grep -q "No rule to make target 'install-lib'" "$work/install-lib.log"; then
		fail "install-lib: the top-level Makefile has no install-lib target"
	else
		fail "install-lib: make install-lib DESTDIR= PREFIX=$prefix failed: $(tail -n 1 "$work/install-lib.log")"
	fi
	exit 1
fi

missing=()
for f in include/cacheprobe.h lib/libcacheprobe.a lib/libcacheprobe.so \
	lib/pkgconfig/cacheprobe.pc; do
	[ -s "$root/$f" ] || missing+=("$f")
done
for page in "$doc"/*.3; do
	cmp -s "$page" "$root/share/man/man3/${page##*/}" ||
		missing+=("share/man/man3/${page##*/}")
done
if [ ${#missing[@]} -eq 0 ] && cmp -s "$header" "$root/include/cacheprobe.h"; then
	pass "install-lib-files (header, libraries, cacheprobe.pc, $(ls "$doc"/*.3 | wc -l) man3 pages under PREFIX)"
else
	fail "install-lib-files: missing or not the tree's under $prefix: $(words "${missing[@]}")"
fi

# The link for the linker (libcacheprobe.so) and the one for the loader
# (the soname) both reach libcacheprobe.so.VERSION.
version=$(cat "$top/VERSION")
real="$root/lib/libcacheprobe.so.$version"
soname=$(readelf -d "$real" 2>/dev/null |
	sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ ! -f "$real" ] || [ -L "$real" ]; then
	fail "install-lib-soname: no file lib/libcacheprobe.so.$version"
elif [[ $soname != libcacheprobe.so.* ]]; then
	fail "install-lib-soname: lib/libcacheprobe.so.$version has soname '$soname'"
elif [ ! -L "$root/lib/$soname" ] || [ ! -L "$root/lib/libcacheprobe.so" ] ||
	[ "$(readlink -f "$root/lib/$soname")" != "$(readlink -f "$real")" ] ||
	[ "$(readlink -f "$root/lib/libcacheprobe.so")" != "$(readlink -f "$real")" ]; then
	fail "install-lib-soname: lib/$soname and lib/libcacheprobe.so are not links to libcacheprobe.so.$version"
else
	pass "install-lib-soname (libcacheprobe.so -> $(readlink "$root/lib/libcacheprobe.so"), $soname -> $(readlink "$root/lib/$soname"))"
fi

export PKG_CONFIG_PATH="$root/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest"
modversion=$(pkg-config --modversion cacheprobe 2>&1)
if [ "$modversion" = "$version" ]; then
	pass "pkg-config-version ($modversion)"
else
	fail "pkg-config-version: pkg-config --modversion cacheprobe said '$modversion', VERSION is $version"
fi

# The paths in cacheprobe.pc are PREFIX's, not those of another build.
pc_paths=$(PKG_CONFIG_SYSROOT_DIR= pkg-config --variable=includedir cacheprobe
	PKG_CONFIG_SYSROOT_DIR= pkg-config --variable=libdir cacheprobe)
if [ "$pc_paths" = "$prefix/include"$'\n'"$prefix/lib" ]; then
	pass "pkg-config-paths (includedir $prefix/include, libdir $prefix/lib)"
else
	fail "pkg-config-paths: installed with PREFIX=$prefix, cacheprobe.pc says includedir and libdir are $(tr '\n' ' ' <<<"$pc_paths")"
fi

# build_consumer NAME CFLAGS-AND-LIBS...: the consumer, built with them,
# must take cacheprobe.h from the installed tree.
build_consumer() {
	local name=$1 used
	shift
	if ! gcc -std=c11 -Wall -Wextra -Werror -o "$work/$name" \
		"$here/library_consumer.c" "$@" 2>"$work/$name.err"; then
		fail "$name: does not build: $(head -n 3 "$work/$name.err")"
		return 1
	fi
	used=$(gcc -std=c11 -M "$here/library_consumer.c" "$@" 2>/dev/null |
		tr ' \\' '\n\n' | grep '/cacheprobe\.h$')
	if [ "$used" != "$root/include/cacheprobe.h" ]; then
		fail "$name: pkg-config's flags take cacheprobe.h from '$used', not the installed tree"
		return 1
	fi
}

# check_consumer NAME STATUS OUTPUT DETAIL: the consumer ran, said the
# installed version and OK.
check_consumer() {
	local name=$1 status=$2 out=$3 detail=$4
	if [ "$status" -ne 0 ] || [ "${out##*$'\n'}" != OK ]; then
		fail "$name: status $status: $(tr '\n' ' ' <<<"$out")"
	elif ! grep -qx "version $version" <<<"$out"; then
		fail "$name: cacheprobe_version() is not $version: $(tr '\n' ' ' <<<"$out")"
	else
		pass "$name ($detail)"
	fi
}

read -r -a flags <<<"$(pkg-config --cflags --libs cacheprobe 2>&1)"
if build_consumer consumer-shared "${flags[@]}"; then
	loaded=$(LD_LIBRARY_PATH="$root/lib" ldd "$work/consumer-shared" |
		awk '$1 ~ /^libcacheprobe\.so/ { print $3 }')
	out=$(LD_LIBRARY_PATH="$root/lib" "$work/consumer-shared" 2>&1)
	status=$?
	if [ "$(readlink -f "$loaded")" != "$(readlink -f "$real")" ]; then
		fail "consumer-shared: loads libcacheprobe from '$loaded', not the installed tree"
	else
		check_consumer consumer-shared "$status" "$out" \
			"pkg-config --cflags --libs: GARBAGE on one CPU, one evict"
	fi
fi

# -lcacheprobe takes the shared library where both are installed: the
# static build names the archive (GNU ld's -l:FILE) and keeps the rest of
# --static's flags, the libraries libcacheprobe.a needs.
read -r -a flags <<<"$(pkg-config --static --cflags --libs cacheprobe 2>&1)"
for i in "${!flags[@]}"; do
	[ "${flags[$i]}" = -lcacheprobe ] && flags[$i]=-l:libcacheprobe.a
done
if build_consumer consumer-static "${flags[@]}"; then
	if readelf -d "$work/consumer-static" | grep -q 'NEEDED.*libcacheprobe'; then
		fail "consumer-static: the program still needs the shared libcacheprobe"
	else
		out=$("$work/consumer-static" 2>&1)
		check_consumer consumer-static "$?" "$out" \
			"pkg-config --static, libcacheprobe.a: GARBAGE on one CPU, one evict"
	fi
fi

# The installed pages: each renders (links resolved by man), and man finds
# each function's page by its name.
bad=0
for page in "$root"/share/man/man3/*.3; do
	check_page "$page" "man3-installed-renders ${page##*/}" || bad=1
done
[ "$bad" -eq 0 ] &&
	pass "man3-installed-renders ($(ls "$root"/share/man/man3/*.3 | wc -l) pages)"
# man -w names the page a link leads to; man 3 FUNCTION shows it.
bad=0
for f in "${functions[@]}"; do
	found=$(MANPATH="$root/share/man" man -w 3 "$f" 2>&1)
	want="$root/share/man/man3/$f.3"
	target=$(link_target "$want" 2>/dev/null)
	[ -n "$target" ] && want="$root/share/man/man3/$target"
	rendered=$(MANPATH="$root/share/man" man --warnings 3 "$f" \
		2>"$work/man.err")
	if [ "$found" != "$want" ]; then
		fail "man3-finds $f: man -w 3 $f said '$found', not $want"
		bad=1
	elif [ -s "$work/man.err" ] || ! grep -q '^NAME' <<<"$rendered"; then
		fail "man3-finds $f: man 3 $f: $(head -n 3 "$work/man.err")"
		bad=1
	fi
done
[ "$bad" -eq 0 ] &&
	pass "man3-finds (man 3 FUNCTION shows each of the ${#functions[@]})"

# The complete programs (those with a main) among the pages' EXAMPLES, as
# a reader would copy them, built against the installed tree as
# cacheprobe(3) says (the compiler's default C dialect), and run.
read -r -a flags <<<"$(pkg-config --cflags --libs cacheprobe 2>&1)"
for page in "$doc"/*.3; do
	[ -n "$(link_target "$page")" ] && continue
	name=${page##*/}
	awk '/^\.SH EXAMPLES/ { on = 1; next } on && /^\.SH/ { exit }
		on && /^\.EX/ { ex = 1; text = ""; next }
		on && /^\.EE/ { ex = 0; if (text ~ /int main\(/) printf "%s", text; next }
		ex { text = text $0 "\n" }' "$page" |
		perl -pe 'BEGIN { %c = ("e" => "\\", "-" => "-", "&" => "",
			"(dq" => "\"", "(aq" => "\x27") }
			s/\\(e|-|&|\(dq|\(aq)/$c{$1}/g' >"$work/example-$name.c"
	[ -s "$work/example-$name.c" ] || continue
	if ! gcc -Wall -Wextra -Werror -o "$work/example-$name" \
		"$work/example-$name.c" "${flags[@]}" 2>"$work/example-$name.err"; then
		fail "man-example $name: does not build: $(head -n 3 "$work/example-$name.err")"
		continue
	fi
	if LD_LIBRARY_PATH="$root/lib" "$work/example-$name" \
		>"$work/example-$name.out" 2>&1; then
		pass "man-example $name (builds, runs: $(head -n 1 "$work/example-$name.out" | cut -c1-60))"
	else
		fail "man-example $name: status $?: $(tail -n 2 "$work/example-$name.out" | tr '\n' ' ')"
	fi
done
exit "$failed"
