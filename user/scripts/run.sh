#!/usr/bin/env bash
# The main job (`make run`): load the module when this kernel allows it,
# run cacheprobe-run's default work, and unload what was loaded here.
#
#   run.sh [AREA...] [RUN OPTIONS]
#
# Arguments go to the final run (`make run AREAS="latency bounce"`); none
# means every area.  CACHEPROBE_RUN_BIN, CACHEPROBE_RUN_KO and
# CACHEPROBE_RUN_DIR (where the results go) replace the paths in the built
# tree, so these steps also run where the tool and module were put
# elsewhere: the guest tests run this script with busybox sh, which is why
# it keeps to what busybox sh understands.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${CACHEPROBE_RUN_BIN:-$top/user/build/cacheprobe-run}
ko=${CACHEPROBE_RUN_KO:-$top/kmod/cacheprobe.ko}
results=${CACHEPROBE_RUN_DIR:-$top}
# The run happens in the results directory: a relative tool path given
# from here would not be found there.
case $bin in
/*) ;;
*) bin="$PWD/$bin" ;;
esac
loaded_here=0
why_not=""

unload() {
	if [ "$loaded_here" -eq 1 ]; then
		rmmod cacheprobe && echo "run: unloaded cacheprobe"
	fi
}
trap unload EXIT

if [ -d /sys/module/cacheprobe ]; then
	echo "run: cacheprobe is already loaded; using it"
elif [ ! -e /proc/modules ]; then
	why_not="the running kernel $(uname -r) has no loadable module support"
elif [ ! -f "$ko" ]; then
	why_not="no module was built: no kernel headers for $(uname -r) (install linux-headers-$(uname -r) or build with KDIR=)"
elif [ "$(id -u)" -ne 0 ]; then
	why_not="loading a module needs root"
elif insmod "$ko"; then
	loaded_here=1
	echo "run: loaded $ko"
else
	why_not="insmod failed (see dmesg; with Secure Boot the module must be signed, see README)"
fi
[ -n "$why_not" ] && echo "run: user mode only: $why_not"

status=0
echo "== cacheprobe-run info"
"$bin" info || status=$?
if [ -d /sys/module/cacheprobe ]; then
	for method in wbinvd wbnoinvd; do
		if [ "$method" = wbnoinvd ] &&
		   ! "$bin" info | grep -q '^features:.*wbnoinvd'; then
			echo "== flush --method wbnoinvd: skipped, this CPU has no WBNOINVD"
			continue
		fi
		echo "== cacheprobe-run flush --method $method"
		"$bin" flush --method "$method" || status=$?
	done
fi
# The default run (every area unless some were named, short settings)
# with its results and the HTML report kept beside the sources; it prints
# where they are.
echo "== cacheprobe-run${*:+ $*} --json results.json --csv results.csv --report report.html"
(cd "$results" && "$bin" "$@" --json results.json --csv results.csv \
	--report report.html) || status=$?
exit "$status"
