/*
 * idset.c: the set of (device, inode) pairs of -unique (idset.h): linear
 * probing in a power-of-two table kept at most half full, a slot being
 * free when its inode is 0 (the pair (dev, 0), which no file has on Linux
 * but which must still work, is kept aside).
 *
 * SPDX-License-Identifier: MIT
 */
#include "idset.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

struct slot {
	uint64_t dev, ino;
};

struct lf_idset {
	const struct lf_mem *mem;
	struct slot *slots; /* cap slots, or NULL before the first add */
	size_t cap;         /* a power of two */
	size_t n;           /* in slots */
	struct slot *zeros; /* the pairs whose inode is 0 */
	size_t nzeros;
};

struct lf_idset *lf_idset_new(const struct lf_mem *mem)
{
	if (!lf_mem_charge(mem, sizeof(struct lf_idset))) {
		errno = ENOMEM;
		return NULL;
	}
	struct lf_idset *s = calloc(1, sizeof(*s));
	if (!s) {
		lf_mem_uncharge(mem, sizeof(struct lf_idset));
		return NULL;
	}
	s->mem = mem;
	return s;
}

/* splitmix64's finalizer over both halves: inodes are often sequential. */
static size_t hash(uint64_t dev, uint64_t ino)
{
	uint64_t h = ino ^ (dev * 0x9e3779b97f4a7c15u);
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9u;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebu;
	return (size_t)(h ^ (h >> 31));
}

/* The slot of (dev, ino) in @slots: where it is, or the free one where it goes. */
static struct slot *probe(struct slot *slots, size_t cap, uint64_t dev, uint64_t ino)
{
	size_t i = hash(dev, ino) & (cap - 1);
	while (slots[i].ino != 0 && !(slots[i].ino == ino && slots[i].dev == dev)) {
		i = (i + 1) & (cap - 1);
	}
	return &slots[i];
}

static int grow(struct lf_idset *s)
{
	size_t cap = s->cap ? 2 * s->cap : 64;
	if (cap > SIZE_MAX / 2 / sizeof(struct slot)) {
		errno = ENOMEM;
		return -1;
	}
	if (!lf_mem_charge(s->mem, cap * sizeof(struct slot))) {
		errno = ENOMEM;
		return -1;
	}
	struct slot *slots = calloc(cap, sizeof(*slots));
	if (!slots) {
		lf_mem_uncharge(s->mem, cap * sizeof(struct slot));
		return -1;
	}
	for (size_t i = 0; i < s->cap; i++) {
		if (s->slots[i].ino != 0) {
			*probe(slots, cap, s->slots[i].dev, s->slots[i].ino) = s->slots[i];
		}
	}
	free(s->slots);
	lf_mem_uncharge(s->mem, s->cap * sizeof(struct slot));
	s->slots = slots;
	s->cap = cap;
	return 0;
}

/* The pairs of inode 0: a list, which holds one device at most in practice. */
static int add_zero(struct lf_idset *s, uint64_t dev)
{
	for (size_t i = 0; i < s->nzeros; i++) {
		if (s->zeros[i].dev == dev) {
			return 0;
		}
	}
	if (!lf_mem_charge(s->mem, sizeof(struct slot))) {
		errno = ENOMEM;
		return -1;
	}
	struct slot *z = realloc(s->zeros, (s->nzeros + 1) * sizeof(*z));
	if (!z) {
		lf_mem_uncharge(s->mem, sizeof(struct slot));
		return -1;
	}
	z[s->nzeros].dev = dev;
	z[s->nzeros].ino = 0;
	s->zeros = z;
	s->nzeros++;
	return 1;
}

int lf_idset_add(struct lf_idset *s, uint64_t dev, uint64_t ino)
{
	if (ino == 0) {
		return add_zero(s, dev);
	}
	if (s->cap) {
		struct slot *at = probe(s->slots, s->cap, dev, ino);
		if (at->ino != 0) {
			return 0;
		}
	}
	if (2 * (s->n + 1) > s->cap && grow(s) != 0) {
		return -1;
	}
	struct slot *at = probe(s->slots, s->cap, dev, ino);
	at->dev = dev;
	at->ino = ino;
	s->n++;
	return 1;
}

size_t lf_idset_count(const struct lf_idset *s)
{
	return s->n + s->nzeros;
}

void lf_idset_free(struct lf_idset *s)
{
	if (!s) {
		return;
	}
	lf_mem_uncharge(s->mem, s->cap * sizeof(struct slot) + s->nzeros * sizeof(struct slot) +
					sizeof(struct lf_idset));
	free(s->slots);
	free(s->zeros);
	free(s);
}
