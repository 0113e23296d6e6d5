/**
 * mem.h: memory accounting for the core's callers (a sandbox that counts
 * what it lets untrusted code hold).
 *
 * A caller that gives the core a struct lf_mem (lf_walk_opts.mem,
 * lf_regex_compile_mem()) is told of the memory the core takes for it:
 * charge() before a block is taken (or grown), which may refuse it, and
 * uncharge() once it is given back.  A refused charge is ENOMEM, as a
 * failed malloc() would be.  Both are called only from the thread that
 * calls the core's function (lf_walk_next(), lf_regex_compile_mem()...),
 * never from the core's own worker threads, so their data needs no lock.
 * What the core charges is what it asked of malloc() (or mmap()), rounded
 * as the core sees it, not the allocator's overhead.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LUAFIND_MEM_H
#define LUAFIND_MEM_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A memory account: both functions are required. */
struct lf_mem {
	/** Take @bytes more: true, or false to refuse them (ENOMEM). */
	bool (*charge)(void *data, size_t bytes);
	/** Give back @bytes charged before. */
	void (*uncharge)(void *data, size_t bytes);
	void *data;
};

/** Charge @bytes to @m (NULL: no account, always true). */
static inline bool lf_mem_charge(const struct lf_mem *m, size_t bytes)
{
	return !m || !bytes || m->charge(m->data, bytes);
}

/** Give @bytes back to @m (NULL: nothing). */
static inline void lf_mem_uncharge(const struct lf_mem *m, size_t bytes)
{
	if (m && bytes) {
		m->uncharge(m->data, bytes);
	}
}

#ifdef __cplusplus
}
#endif

#endif
