// SPDX-License-Identifier: GPL-2.0
/*
 * The libFuzzer + ThreadSanitizer builds' own suppression of the races on
 * libFuzzer's edge counters, which the scheduled engine's fibers bump
 * without synchronization (sanitizers/tsan.supp has the same entry and
 * says why it cannot hide a bug of the port). tools/mlf passes tsan.supp
 * to every run; built in, a binary run by hand, without that
 * TSAN_OPTIONS, reports no race on the counters either.
 */
const char *__tsan_default_suppressions(void);

const char *__tsan_default_suppressions(void)
{
	return "race:__TMC_END__\n";
}
