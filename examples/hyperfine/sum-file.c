// SPDX-License-Identifier: GPL-2.0
/*
 * sum-file FILE: the 64-bit sum of a file's words, read through mmap.
 *
 * The command hyperfine times.  A file, not an anonymous buffer: its pages
 * stay in the page cache between runs at the same physical addresses, so
 * one run can find the lines the run before left in the CPU caches (warm),
 * unless an eviction came in between (cold).  Memory a process allocates
 * for itself is new every run and never warm.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const uint64_t *words;
	uint64_t total = 0;
	struct stat st;
	size_t n;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: sum-file FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		perror(argv[1]);
		return 1;
	}
	n = (size_t)st.st_size / sizeof(*words);
	if (n == 0) {
		fprintf(stderr, "%s: shorter than one word\n", argv[1]);
		return 1;
	}
	/* MAP_POPULATE: the page tables in one go, not a fault every few
	 * pages inside the sum. */
	words = mmap(NULL, n * sizeof(*words), PROT_READ,
		     MAP_SHARED | MAP_POPULATE, fd, 0);
	if (words == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		total += words[i];
	printf("%" PRIu64 "\n", total);
	return 0;
}
