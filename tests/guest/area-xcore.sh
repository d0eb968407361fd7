# SPDX-License-Identifier: GPL-2.0
# The xcore area in the guest: kernel mode (XFER, and CHASE for the
# from-memory baseline) over both transports, with and without --delay
# (XFER's DELAY); bad input refused with exit status 2 before the module is
# asked.
XCORE_OPTS="--min-size 8K --max-size 16K"

# xcore_kernel_delay TRANSPORT: a kernel-mode run with a delay: the pair and
# the same CPU, both actions and sizes, named with the delay; no memory
# baseline (CHASE has no delay), and a note that says so.
xcore_kernel_delay() {
	local tr=$1 json=/tmp/xcore-kernel-delay-$1.json n
	t_area_kernel "xcore-kernel-delay-$tr" xcore \
		'(read|modify) .* 0>3 (8|16) KiB delay 8' 'modify .* 0>3 +16 ' \
		--transport "$tr" $XCORE_OPTS --pairs 0:3 --delay 8
	n=$(json_measurements "$json" |
		grep -cE '^xcore\|(read|modify) (.* 0>3|same-cpu 0>0) (8|16) KiB delay 8\|kernel$')
	if [ "$n" = 8 ] && ! json_measurements "$json" | grep -q '|memory '; then
		t_pass "xcore-kernel-delay-$tr-all"
	else
		t_fail "xcore-kernel-delay-$tr-all" "wanted 8 kernel measurements with delay 8 and no memory baseline, got $n:
$(json_measurements "$json")"
	fi
	if grep -q '"delay":8' "$json" &&
		grep -q 'no from-memory baseline with --delay' "$json"; then
		t_pass "xcore-kernel-delay-$tr-params"
	else
		t_fail "xcore-kernel-delay-$tr-params" "no delay 8 parameter or no note on the missing memory baseline in $json"
	fi
}

test_area_xcore() {
	local tr n buffer0
	for tr in netlink ioctl; do
		t_area_kernel "xcore-kernel-$tr" xcore \
			'(read|modify) .* 0>3 16 KiB' 'modify .* 0>3 +16 ' \
			--transport "$tr" $XCORE_OPTS --pairs 0:3
		t_json_missed "xcore-kernel-$tr-missed-rounds" \
			"/tmp/xcore-kernel-$tr.json" xcore
		# Per size: read and modify of the pair and of the same CPU,
		# and the memory baseline.
		n=$(json_measurements "/tmp/xcore-kernel-$tr.json" |
			grep -cE '^xcore\|((read|modify) (.* 0>3|same-cpu 0>0)|memory cpu 3) (8|16) KiB\|kernel$')
		if [ "$n" = 10 ]; then
			t_pass "xcore-kernel-$tr-all"
		else
			t_fail "xcore-kernel-$tr-all" "wanted 10 kernel measurements, got $n"
		fi
	done
	for tr in netlink ioctl; do
		xcore_kernel_delay "$tr"
		t_expect_fail "xcore-kernel-delay-too-large-$tr" 2 \
			"--delay: 5000 is above the maximum of 4096" \
			"$RUN" xcore --mode kernel --transport "$tr" $AREA_OPTS \
			--pairs 0:3 --delay 5000
	done
	if grep -q '"penalty_milli":' /tmp/xcore-kernel-netlink.json; then
		t_pass xcore-kernel-penalty
	else
		t_fail xcore-kernel-penalty "no penalty against the same CPU in the JSON"
	fi
	t_expect_fail xcore-kernel-one-cpu 2 "xcore: pair 2:2 names CPU 2 twice" \
		"$RUN" xcore --mode kernel $AREA_OPTS --pairs 2:2
	t_expect_fail xcore-kernel-unknown-cpu 2 "CPU 9 is not online" \
		"$RUN" xcore --mode kernel $AREA_OPTS --pairs 0:9
	t_expect_fail xcore-kernel-size 2 "block size 24576 is not a power of two" \
		"$RUN" xcore --mode kernel $AREA_OPTS --max-size 24K
	buffer0=$(cat $BUFFER)
	echo 1 >$BUFFER
	t_expect_fail xcore-kernel-buffer 2 \
		"xcore: --max-size 2097152 is above the module's largest buffer \(1048576 bytes" \
		"$RUN" xcore --mode kernel $AREA_OPTS --min-size 2M --max-size 2M
	echo "$buffer0" >$BUFFER
	echo 0 >/sys/devices/system/cpu/cpu3/online
	t_expect_fail xcore-kernel-offline 2 "CPU 3 is not online" \
		"$RUN" xcore --mode kernel $AREA_OPTS --pairs 0:3
	echo 1 >/sys/devices/system/cpu/cpu3/online
}
