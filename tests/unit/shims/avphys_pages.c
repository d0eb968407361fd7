// SPDX-License-Identifier: GPL-2.0
/*
 * Preloaded into cacheprobe-run by a test, to play a machine short of
 * free memory: sysconf(_SC_AVPHYS_PAGES) answers CACHEPROBE_TEST_AVPHYS_PAGES
 * when that is set; everything else goes to the C library.  A test
 * cannot free or fill the machine's memory to order.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

long sysconf(int name)
{
	static long (*real_sysconf)(int);
	const char *pages = getenv("CACHEPROBE_TEST_AVPHYS_PAGES");

	if (name == _SC_AVPHYS_PAGES && pages)
		return strtol(pages, NULL, 10);
	if (!real_sysconf)
		real_sysconf = (long (*)(int))dlsym(RTLD_NEXT, "sysconf");
	return real_sysconf(name);
}
