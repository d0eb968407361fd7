# cacheprobe: a kernel module (kmod/) and a userspace tool (user/) for
# measuring CPU-cache behaviour.  See README.md.
KVER    ?= $(shell uname -r)
KDIR    ?= /lib/modules/$(KVER)/build
PREFIX  ?= /usr/local
VERSION := $(shell cat VERSION)
DKMS_SRC = /usr/src/cacheprobe-$(VERSION)

all: tools module

tools:
	$(MAKE) -C user

# The module needs a kernel build tree; without one the tools still build.
module:
	@if [ -f "$(KDIR)/Makefile" ]; then \
		$(MAKE) -C kmod KDIR=$(KDIR); \
	else \
		echo "module: skipped: no kernel build tree at $(KDIR)" \
		     "(install linux-headers-$(KVER) or set KDIR=)"; \
	fi

deps:
	user/scripts/deps.sh build

# The main job: dependencies, build, module loaded where the kernel allows,
# the default measurements, module unloaded again.
run: deps
	$(MAKE) all
	user/scripts/run.sh

# Every test: unit tests, module builds, guest boots, DKMS.
check:
	tests/run-all.sh

# The guest tests, fuzzers and fault tests again on a 6.12 kernel built with
# KASAN, lockdep and kmemleak; fails on any report.  Slow, not in `check`.
check-debug:
	tests/debug/check-debug.sh

# The instrument's own figures (timer, NOTHING floor) and the latency curve.
bench: tools
	$(MAKE) -C user bench

install: all
	install -D -m 0755 user/build/cacheprobe-run \
		$(DESTDIR)$(PREFIX)/bin/cacheprobe-run
	@if [ -f kmod/cacheprobe.ko ]; then \
		install -D -m 0644 kmod/cacheprobe.ko \
			$(DESTDIR)/lib/modules/$(KVER)/extra/cacheprobe.ko && \
		{ [ -n "$(DESTDIR)" ] || depmod -a $(KVER); }; \
	fi

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/cacheprobe-run
	rm -f $(DESTDIR)/lib/modules/$(KVER)/extra/cacheprobe.ko
	[ -n "$(DESTDIR)" ] || depmod -a $(KVER)

# DKMS rebuilds the module for every kernel installed later.
dkms-install: dkms-uninstall
	mkdir -p $(DKMS_SRC)
	cp -a dkms.conf VERSION kmod include $(DKMS_SRC)/
	$(MAKE) -C $(DKMS_SRC)/kmod KDIR=$(KDIR) clean >/dev/null 2>&1 || true
	dkms add -m cacheprobe -v $(VERSION)
	dkms install -m cacheprobe -v $(VERSION) -k $(KVER)

dkms-uninstall:
	-dkms remove -m cacheprobe -v $(VERSION) --all 2>/dev/null
	rm -rf $(DKMS_SRC)

clean:
	$(MAKE) -C user clean
	@if [ -f "$(KDIR)/Makefile" ]; then $(MAKE) -C kmod KDIR=$(KDIR) clean; fi
	rm -rf tests/out results.json results.csv

.PHONY: all tools module deps run check check-debug bench install uninstall dkms-install \
	dkms-uninstall clean
