# SPDX-License-Identifier: GPL-2.0
# The evict command (libcacheprobe) in the guest.  Not an area, but its
# tests run where the areas' do, with the module loaded and unloaded:
# WBINVD and WBNOINVD through the module over both transports; auto under
# emulation, where WBINVD evicts nothing (QEMU has no caches), must fall
# back to the garbage read and say so; an unprivileged caller is refused
# WBINVD and falls back under auto; CPUs the module refuses.  Behaviour
# only: the guest has no caches to time.

test_area_evict() {
	local tr
	for tr in netlink ioctl; do
		t_expect_out "evict-wbinvd-$tr" \
			"^evict: wbinvd on CPUs 0-$LAST in" \
			"$RUN" evict --method wbinvd --transport "$tr" \
			--cpus "0-$LAST"
		t_expect_out "evict-wbinvd-one-$tr" "^evict: wbinvd on CPUs $LAST " \
			"$RUN" evict --method wbinvd --transport "$tr" \
			--cpus "$LAST"
		if has_flag wbnoinvd; then
			t_expect_out "evict-wbnoinvd-$tr" "^evict: wbnoinvd on" \
				"$RUN" evict --method wbnoinvd --transport "$tr"
		else
			t_expect_fail "evict-wbnoinvd-$tr" 1 "has no WBNOINVD" \
				"$RUN" evict --method wbnoinvd --transport "$tr"
		fi
	done
	t_expect_fail evict-wbinvd-offline 2 "CPU $NR_CPU_IDS does not exist" \
		"$RUN" evict --method wbinvd --cpus "$NR_CPU_IDS"
	# Under emulation the check at open cannot see WBINVD evict: the timer
	# tells no cache from memory, or the warmed buffer times as evicted
	# after a call into the module that evicts nothing as well (4 of 60
	# checks; before the check made that call, 1 of 12 took WBINVD),
	# or it stays as it was.  Never WBINVD.
	t_expect_out evict-auto-emulated \
		"why: WBINVD (could not be checked|does not evict here)" \
		"$RUN" evict
	t_expect_out evict-auto-emulated-garbage "^evict: garbage on" \
		"$RUN" evict
	t_expect_fail evict-wbinvd-unpriv 1 \
		"wbinvd: .*(CAP_SYS_ADMIN|EPERM|EACCES)" \
		as_nobody "$RUN" evict --method wbinvd
	t_expect_out evict-auto-unpriv \
		"why: wbinvd: .*(CAP_SYS_ADMIN|EPERM|EACCES).*garbage read planned" \
		as_nobody "$RUN" evict
}

test_area_evict_unloaded() {
	t_expect_fail evict-wbinvd-unloaded 1 "wbinvd: cacheprobe module not loaded" \
		"$RUN" evict --method wbinvd
	t_expect_out evict-auto-unloaded \
		"why: wbinvd: cacheprobe module not loaded.*garbage read planned" \
		"$RUN" evict
}
