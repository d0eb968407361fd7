# SPDX-License-Identifier: GPL-2.0
# Guest tests of the align area: kernel mode through ACCESS over both
# transports, both modes side by side, and bad input refused before
# anything runs.  Timings inside the guest mean nothing; only behaviour is
# checked.
ALIGN_OPTS="--offsets 0,60 --access-widths 1,8,16 --buffers l1"

test_area_align() {
	local tr n
	for tr in netlink ioctl; do
		t_area_kernel "align-kernel-$tr" align \
			'load-latency 8B off 60, .* \(kernel\)' \
			'load-latency 8B off 60, .* \(kernel\)' \
			--transport "$tr" $ALIGN_OPTS
	done
	# Every kind, the offsets, the page pair: 3 kinds x (1B: 0, 60;
	# 8B and 16B: 0, 60, page 0, page split) = 30 measurements.
	n=$(json_measurements /tmp/align-kernel-netlink.json |
		grep -c '^align|.*(kernel)|kernel$')
	if [ "$n" = 30 ]; then
		t_pass align-kernel-count
	else
		t_fail align-kernel-count "wanted 30 kernel-mode measurements, got $n"
	fi
	if grep -q '"name":"store-throughput 16B off 4088, .*(kernel)"' \
		/tmp/align-kernel-ioctl.json; then
		t_pass align-kernel-page-split
	else
		t_fail align-kernel-page-split "no 16-byte page-split store in /tmp/align-kernel-ioctl.json"
	fi
	# Both modes: the same access measured in user and in kernel mode.
	rm -f /tmp/align-both.json
	t_expect_out align-both 'splits a line: x' "$RUN" align --mode both \
		--json /tmp/align-both.json $AREA_OPTS --offsets 0,60 \
		--access-widths 8 --access-kinds load-latency --buffers 16K
	n=$(json_measurements /tmp/align-both.json |
		grep -cE '^align\|load-latency 8B off 60, 16 KiB, stride 256( \(kernel\))?\|(user|kernel)$')
	if [ "$n" = 2 ]; then
		t_pass align-both-json
	else
		t_fail align-both-json "wanted the split load in user and kernel mode, got $n"
	fi
	# --seed 0 over the ioctl, which cannot carry seed 0 (its "draw
	# one"): the module draws its own cycle, and every item is measured.
	rm -f /tmp/align-seed0.json
	t_expect_out align-kernel-seed-0-ioctl 'load-latency 8B off 60, .* \(kernel\)' \
		"$RUN" align --mode kernel --transport ioctl --seed 0 \
		--json /tmp/align-seed0.json $AREA_OPTS --offsets 0,60 \
		--access-widths 8 --access-kinds load-latency --buffers 16K
	# Bad input: a width this CPU cannot do, an offset beyond the buffer.
	if grep -qw avx512f /proc/cpuinfo; then
		t_skip align-kernel-width-unsupported "this guest CPU has AVX-512F"
	else
		t_expect_fail align-kernel-width-unsupported 2 \
			"--access-widths 64: 64-byte accesses need AVX-512F, which this CPU lacks" \
			"$RUN" align --mode kernel $AREA_OPTS --access-widths 64
	fi
	t_expect_fail align-kernel-offset-beyond-buffer 2 \
		"offset 4000 with 8-byte accesses .* does not fit a 8192-byte buffer" \
		"$RUN" align --mode kernel $AREA_OPTS --buffers 8K --offsets 4000 \
		--access-widths 8
	t_expect_fail align-kernel-bad-width 2 "'3' is not an access width" \
		"$RUN" align --mode kernel $AREA_OPTS --access-widths 3
}

test_area_align_unloaded() {
	t_expect_fail align-kernel-without-module 1 \
		"align: --mode kernel: cacheprobe module not loaded" \
		"$RUN" align --mode kernel $AREA_OPTS --access-widths 8
}
