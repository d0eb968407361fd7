// SPDX-License-Identifier: GPL-2.0
/*
 * gbench: a sum over a 256 KiB and over an 8 MiB buffer, cold and warm,
 * with Google Benchmark.  Cold iterations start with cacheprobe_evict():
 * the caches of every CPU this thread may run on are emptied, so one
 * iteration gets no help from the one before.  Warm iterations are the
 * same without the eviction.
 *
 * The method is the library's choice (AUTO); it is printed on stderr
 * before the run and kept in the benchmark context ("cacheprobe_method",
 * "cacheprobe_reason"), so the console header and the JSON output say how
 * the cold runs were made cold.
 *
 * Usage: gbench [--cold_iterations=N] [Google Benchmark's --benchmark_...]
 *
 * Cold benchmarks run a fixed number of iterations (default 100).  Google
 * Benchmark picks the count from the time it measures, which for a cold
 * iteration leaves the eviction out: a 20 us sum after a 15 ms eviction
 * would take 25,000 evictions, six minutes, to fill its half second.
 * Warm benchmarks keep its choice (--benchmark_min_time).
 */
#include <benchmark/benchmark.h>
#include <cacheprobe.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <numeric>
#include <string>
#include <vector>

namespace {

// One context for the whole run: opening it (the AUTO check, GARBAGE's
// buffers and pinned readers) costs far more than an eviction.
cacheprobe_ctx *ctx;

/*
 * Four independent sums: one chain of dependent adds would hold the loop
 * to an add a cycle, slower than L2 delivers, and warm and cold would
 * time the adds rather than where the data came from.
 */
uint64_t sum(const std::vector<uint64_t> &words)
{
	uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	size_t n = words.size(), i = 0;

	for (; i + 4 <= n; i += 4) {
		s0 += words[i];
		s1 += words[i + 1];
		s2 += words[i + 2];
		s3 += words[i + 3];
	}
	for (; i < n; i++)
		s0 += words[i];
	return s0 + s1 + s2 + s3;
}

/*
 * Manual timing (UseManualTime), not PauseTiming()/ResumeTiming(): each of
 * those reads the wall clock and the thread's CPU clock (a system call),
 * and part of that lands inside the timed span: an empty iteration that
 * pauses and resumes measured 1.5 us on a virtual machine, where a warm
 * 256 KiB sum took 5 us.  Two steady_clock reads around
 * the sum alone time exactly the sum, and warm and cold are timed the same
 * way, so they differ only by the eviction before.  The CPU column still
 * covers the whole iteration, eviction included: read the Time column.
 */
void bm_sum(benchmark::State &state, bool cold)
{
	std::vector<uint64_t> words(static_cast<size_t>(state.range(0)) / 8);

	// Written before the loop, so no page fault is timed.
	std::iota(words.begin(), words.end(), 0);
	// The buffer escapes: the clock reads around sum() could change it as
	// far as the compiler knows, so it cannot move the reads out of the
	// timed span nor compute the sum once for every iteration.
	benchmark::DoNotOptimize(words.data());
	if (cold)
		state.SetLabel(cacheprobe_method_name(cacheprobe_method(ctx)));
	for (auto _ : state) {
		if (cold && cacheprobe_evict(ctx)) {
			state.SkipWithError(cacheprobe_last_error());
			break;
		}
		auto start = std::chrono::steady_clock::now();
		uint64_t total = sum(words);
		auto end = std::chrono::steady_clock::now();

		benchmark::DoNotOptimize(total);
		state.SetIterationTime(
			std::chrono::duration<double>(end - start).count());
	}
	state.SetBytesProcessed(state.iterations() * state.range(0));
}

const int64_t sizes[] = { 256 << 10, 8 << 20 };

/* Takes --cold_iterations=N out of the arguments; 0 for a bad value. */
int64_t cold_iterations(int *argc, char **argv)
{
	const std::string flag = "--cold_iterations=";
	int64_t n = 100;
	int kept = 1;

	for (int i = 1; i < *argc; i++) {
		std::string arg = argv[i];

		if (arg.compare(0, flag.size(), flag) != 0) {
			argv[kept++] = argv[i];
			continue;
		}
		try {
			size_t end;

			n = std::stoll(arg.substr(flag.size()), &end);
			if (end != arg.size() - flag.size() || n < 1)
				n = 0;
		} catch (const std::exception &) {
			n = 0;
		}
	}
	*argc = kept;
	argv[kept] = nullptr;
	return n;
}

} // namespace

int main(int argc, char **argv)
{
	int64_t cold = cold_iterations(&argc, argv);

	if (cold == 0) {
		std::fprintf(stderr,
			     "gbench: --cold_iterations takes a count of 1 or more\n");
		return 2;
	}
	for (int64_t size : sizes) {
		benchmark::RegisterBenchmark("sum/cold", bm_sum, true)
			->Arg(size)->Iterations(cold)->UseManualTime();
		benchmark::RegisterBenchmark("sum/warm", bm_sum, false)
			->Arg(size)->UseManualTime();
	}
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 2;

	// NULL options: method AUTO, this thread's affinity as the CPUs, which
	// are the CPUs the benchmarks run on (Google Benchmark runs them on
	// the main thread).
	if (cacheprobe_open(nullptr, &ctx)) {
		std::fprintf(stderr, "gbench: cacheprobe_open: %s\n",
			     cacheprobe_last_error());
		return 1;
	}
	const char *method = cacheprobe_method_name(cacheprobe_method(ctx));
	const char *reason = cacheprobe_method_reason(ctx);

	std::fprintf(stderr, "cacheprobe: method %s: %s\n", method, reason);
	if (uint64_t garbage = cacheprobe_garbage_bytes(ctx))
		std::fprintf(stderr,
			     "cacheprobe: each eviction reads %.1f MiB of garbage\n",
			     garbage / 1048576.0);
	benchmark::AddCustomContext("cacheprobe_method", method);
	benchmark::AddCustomContext("cacheprobe_reason", reason);

	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	cacheprobe_close(ctx);
	return 0;
}
