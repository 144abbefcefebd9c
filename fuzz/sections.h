/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The linker's bounds of a named section (__start_<section> and
 * __stop_<section>): weak, so that a binary with no object in the section
 * links, both NULL then.
 */
#ifndef _MLF_FUZZ_SECTIONS_H
#define _MLF_FUZZ_SECTIONS_H

#define MLF_SECTION_BOUNDS(sec)                                 \
	extern unsigned char __start_##sec[]                    \
		__attribute__((weak, visibility("hidden")));    \
	extern unsigned char __stop_##sec[]                     \
		__attribute__((weak, visibility("hidden")))

#endif
