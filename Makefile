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
# the default measurements (every area, or AREAS="latency bounce"), module
# unloaded again.
run: deps
	$(MAKE) all
	user/scripts/run.sh $(AREAS)

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

# The figures of the performance targets, measured here (a few minutes).
targets: tools
	user/scripts/targets.sh

# Where make install puts the tool's files (DESTDIR and PREFIX respected).
BINDIR        ?= $(PREFIX)/bin
LIBDIR        ?= $(PREFIX)/lib
INCLUDEDIR    ?= $(PREFIX)/include
MANDIR        ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
DATADIR       ?= $(PREFIX)/share/cacheprobe

install: all install-tools install-lib
	@if [ -f kmod/cacheprobe.ko ]; then \
		install -D -m 0644 kmod/cacheprobe.ko \
			$(DESTDIR)/lib/modules/$(KVER)/extra/cacheprobe.ko && \
		{ [ -n "$(DESTDIR)" ] || depmod -a $(KVER); }; \
	fi

# The tool, its manual pages, bash completion and the netlink spec.
install-tools: tools
	install -D -m 0755 user/build/cacheprobe-run \
		$(DESTDIR)$(BINDIR)/cacheprobe-run
	install -D -m 0644 user/doc/cacheprobe-run.1 \
		$(DESTDIR)$(MANDIR)/man1/cacheprobe-run.1
	install -D -m 0644 user/doc/cacheprobe.4 \
		$(DESTDIR)$(MANDIR)/man4/cacheprobe.4
	install -D -m 0644 user/completion/cacheprobe-run \
		$(DESTDIR)$(COMPLETIONDIR)/cacheprobe-run
	install -D -m 0644 include/netlink/specs/cacheprobe.yaml \
		$(DESTDIR)$(DATADIR)/cacheprobe.yaml

# libcacheprobe: the shared library with its soname links, the static one,
# the header, pkg-config's cacheprobe.pc and the section-3 manual pages.
LIB_DIRS = PREFIX=$(PREFIX) LIBDIR=$(LIBDIR) INCLUDEDIR=$(INCLUDEDIR)
SHARED_LIB = libcacheprobe.so.$(VERSION)
MAN3_PAGES = $(wildcard user/doc/*.3)

install-lib:
	$(MAKE) -C user lib $(LIB_DIRS)
	install -D -m 0755 user/build/$(SHARED_LIB) \
		$(DESTDIR)$(LIBDIR)/$(SHARED_LIB)
	ln -sf $(SHARED_LIB) $(DESTDIR)$(LIBDIR)/libcacheprobe.so.0
	ln -sf libcacheprobe.so.0 $(DESTDIR)$(LIBDIR)/libcacheprobe.so
	install -D -m 0644 user/build/libcacheprobe.a \
		$(DESTDIR)$(LIBDIR)/libcacheprobe.a
	install -D -m 0644 include/cacheprobe.h \
		$(DESTDIR)$(INCLUDEDIR)/cacheprobe.h
	install -D -m 0644 user/build/cacheprobe.pc \
		$(DESTDIR)$(LIBDIR)/pkgconfig/cacheprobe.pc
	install -d $(DESTDIR)$(MANDIR)/man3
	install -m 0644 $(MAN3_PAGES) $(DESTDIR)$(MANDIR)/man3/
	[ -n "$(DESTDIR)" ] || ldconfig

uninstall-lib:
	rm -f $(DESTDIR)$(LIBDIR)/$(SHARED_LIB) \
		$(DESTDIR)$(LIBDIR)/libcacheprobe.so.0 \
		$(DESTDIR)$(LIBDIR)/libcacheprobe.so \
		$(DESTDIR)$(LIBDIR)/libcacheprobe.a \
		$(DESTDIR)$(INCLUDEDIR)/cacheprobe.h \
		$(DESTDIR)$(LIBDIR)/pkgconfig/cacheprobe.pc \
		$(addprefix $(DESTDIR)$(MANDIR)/man3/,$(notdir $(MAN3_PAGES)))
	[ -n "$(DESTDIR)" ] || ldconfig

uninstall: uninstall-tools uninstall-lib
	rm -f $(DESTDIR)/lib/modules/$(KVER)/extra/cacheprobe.ko
	[ -n "$(DESTDIR)" ] || depmod -a $(KVER)

uninstall-tools:
	rm -f $(DESTDIR)$(BINDIR)/cacheprobe-run \
		$(DESTDIR)$(MANDIR)/man1/cacheprobe-run.1 \
		$(DESTDIR)$(MANDIR)/man4/cacheprobe.4 \
		$(DESTDIR)$(COMPLETIONDIR)/cacheprobe-run \
		$(DESTDIR)$(DATADIR)/cacheprobe.yaml
	rmdir $(DESTDIR)$(DATADIR) 2>/dev/null || true

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
	rm -rf tests/out results.json results.csv report.html

.PHONY: all tools module deps run check check-debug bench targets install \
	uninstall dkms-install dkms-uninstall clean install-tools uninstall-tools \
	install-lib uninstall-lib
