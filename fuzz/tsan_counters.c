// SPDX-License-Identifier: GPL-2.0
/*
 * The libFuzzer + ThreadSanitizer builds: tell TSan that libFuzzer's
 * coverage counters are racy by design. The scheduled engine's tasks are
 * fibers, which TSan tells apart like threads and switches between without
 * synchronization, and every instrumented function bumps its inline 8-bit
 * counters (section __sancov_cntrs) with a plain increment that clang 14
 * does not mark nosanitize; the harness's own extra counters (section
 * __libfuzzer_extra_counters) are bumped from every task too.
 *
 * AnnotateBenignRaceSized() over each section, as the linker bounds it
 * (__start_<section> / __stop_<section>): TSan then drops a report only
 * when the racy access is on one of those bytes. An address range, not a
 * name: it does not depend on which symbol the linker puts before the
 * section, and no access of the code under test (its globals have
 * sections of their own, its objects are on the heap) can fall in it
 * (sanitizers/README.md). Linked into every executable of a libFuzzer +
 * TSan build (CMakeLists.txt); built without TSan and without coverage.
 * TSan is up before constructors run.
 */
#include <stddef.h>

#include "sections.h"

void AnnotateBenignRaceSized(const char *file, int line,
			     const volatile void *mem, long size,
			     const char *desc);

MLF_SECTION_BOUNDS(__sancov_cntrs);
MLF_SECTION_BOUNDS(__libfuzzer_extra_counters);

/* a section no object of this binary has: both bounds are NULL */
static void benign(const unsigned char *start, const unsigned char *stop,
		   const char *what)
{
	if (start && stop > start)
		AnnotateBenignRaceSized(__FILE__, __LINE__, start, stop - start,
					what);
}

__attribute__((constructor)) static void mlf_tsan_counters(void)
{
	benign(__start___sancov_cntrs, __stop___sancov_cntrs,
	       "libFuzzer's inline 8-bit counters (__sancov_cntrs)");
	benign(__start___libfuzzer_extra_counters,
	       __stop___libfuzzer_extra_counters,
	       "libFuzzer's extra counters (__libfuzzer_extra_counters)");
}
