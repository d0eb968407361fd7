# SPDX-License-Identifier: GPL-2.0
# The c2c area in the guest: kernel mode (PINGPONG) over both transports on
# every pair of the 4 CPUs, the line's home side, the matrix file; bad
# input refused with exit status 2.
C2C_OPTS="--budget 20"

test_area_c2c() {
	local tr n
	for tr in netlink ioctl; do
		rm -f "/tmp/c2c-$tr.csv"
		t_area_kernel "c2c-kernel-$tr" c2c '(cas|flag) [0-3]:[0-3]' \
			'per pair class' --transport "$tr" $C2C_OPTS \
			--matrix "/tmp/c2c-$tr.csv"
		t_json_missed "c2c-kernel-$tr-missed-rounds" \
			"/tmp/c2c-kernel-$tr.json" c2c
		# 6 pairs x 2 variants.
		n=$(json_measurements "/tmp/c2c-kernel-$tr.json" |
			grep -cE '^c2c\|(cas|flag) [0-3]:[0-3]\|kernel$')
		if [ "$n" = 12 ]; then
			t_pass "c2c-kernel-$tr-pairs"
		else
			t_fail "c2c-kernel-$tr-pairs" "wanted 12 kernel measurements, got $n"
		fi
		n=$(grep -cE '^kernel,(cas|flag),[0-3],[0-3],' "/tmp/c2c-$tr.csv")
		if [ "$n" = 12 ]; then
			t_pass "c2c-kernel-$tr-matrix"
		else
			t_fail "c2c-kernel-$tr-matrix" "wanted 12 matrix rows, got $n"
		fi
	done
	rm -f /tmp/c2c-home.json
	t_expect_out c2c-kernel-home '.' "$RUN" c2c --mode kernel $AREA_OPTS \
		--cpus 1,2 --home second --json /tmp/c2c-home.json
	if grep -q '"home_cpu":2' /tmp/c2c-home.json; then
		t_pass c2c-kernel-home-json
	else
		t_fail c2c-kernel-home-json "no home_cpu 2 in /tmp/c2c-home.json"
	fi
	t_expect_fail c2c-kernel-one-cpu 2 "c2c: one CPU selected; a ping-pong needs two" \
		"$RUN" c2c --mode kernel $AREA_OPTS --cpus 1
	t_expect_fail c2c-kernel-unknown-cpu 2 "CPU 9 does not exist" \
		"$RUN" c2c --mode kernel $AREA_OPTS --cpus 0,9
	t_expect_fail c2c-kernel-budget 2 "too short for 6 pairs x 2 variants" \
		"$RUN" c2c --mode kernel $AREA_OPTS --budget 0.005
	t_expect_fail c2c-kernel-bad-home 2 "--home: 'both' is neither" \
		"$RUN" c2c --mode kernel $AREA_OPTS --home both
	echo 0 >/sys/devices/system/cpu/cpu3/online
	t_expect_fail c2c-kernel-offline 2 "CPU 3" \
		"$RUN" c2c --mode kernel $AREA_OPTS --cpus 0,3
	echo 1 >/sys/devices/system/cpu/cpu3/online
}
