/*
 * join.c: what a --run script says of a directory, carried to the rank
 * that holds its parent.
 *
 * A script folds the tree after its contents (du's totals, empty-dirs'
 * count of what stays): a directory's value goes to its parent on its
 * post-order visit.  When the parent is on another rank (the directory
 * was an item), or waits for the deferred phase, the value cannot be
 * added in the script's own state: the script sends it up (lfm_join_up),
 * and it is added to the parent's deferred record (lfm_deferred.acc),
 * which the script gets back on the record's deferred visit (LFM_JOINED).
 *
 * Values are queued per destination rank and exchanged by every rank at
 * once before each depth of the deferred phase (lfm_join_exchange, an
 * all-to-all): the values of depth d + 1 have all arrived when the
 * records of depth d are visited, since a rank only enters the exchange
 * once it has visited its records of depth d + 1.  A record is found by
 * its key (depth, root, path) in the rank's records, sorted by
 * lfm_deferred_cmp.
 *
 * Claims (a file with several hard links that du counts once): each rank
 * claims a key for the directory where it met the file (that directory's
 * visit is deferred, lfm_hold_dir); after the walk rank 0 gathers the
 * claims and gives each key to the claim whose directory comes first
 * (root, then path), whose value goes up to that directory as any other.
 * The claim chosen does not depend on how the walk was split.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "lfm.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct lfm_join {
	struct lfm_buf *out; /* per destination rank: up records */
	struct lfm_buf claims;
};

/* An up record on the wire: the key of the record it goes to, and the value. */
struct up_head {
	int64_t value;
	uint32_t root;
	int32_t depth;
	uint32_t pathlen;
};

/* A claim: the key's length, the value and the directory's key. */
struct claim_head {
	int64_t value;
	uint32_t keylen;
	uint32_t root;
	int32_t depth;
	uint32_t pathlen;
};

int lfm_deferred_cmp(const void *a, const void *b)
{
	const struct lfm_deferred *x = a, *y = b;
	if (x->depth != y->depth) {
		return x->depth > y->depth ? -1 : 1;
	}
	if (x->root != y->root) {
		return x->root < y->root ? -1 : 1;
	}
	return strcmp(x->path, y->path);
}

/* Append to @b; -1 if it, or anything before, could not be. */
static int put(struct lfm_buf *b, const void *data, size_t n)
{
	lfm_put(b, data, n);
	return b->err ? -1 : 0;
}

static struct lfm_join *join(struct lfm *m)
{
	if (!m->join) {
		struct lfm_join *j = calloc(1, sizeof(*j));
		if (!j || !(j->out = calloc((size_t)m->size, sizeof(*j->out)))) {
			free(j);
			return NULL;
		}
		m->join = j;
	}
	return m->join;
}

/* The path of @t's parent: the root itself at depth 0, else up to @t's last slash. */
static void parent_path(const struct lfm *m, const struct lfm_target *t, const char **path, size_t *len)
{
	if (t->depth == 0) {
		*path = m->cmd->roots[t->root];
		*len = strlen(*path);
		return;
	}
	const char *slash = memrchr(t->path, '/', t->pathlen);
	*path = t->path;
	*len = slash ? (size_t)(slash - t->path) : 0;
}

/* Queue @value for record (@depth, @root, @path) on @rank. */
static int queue(struct lfm *m, int rank, uint32_t root, int depth, const char *path, size_t len, int64_t value)
{
	struct lfm_join *j = join(m);
	if (!j || len > UINT32_MAX) {
		errno = ENOMEM;
		return -1;
	}
	struct up_head h = {value, root, depth, (uint32_t)len};
	if (put(&j->out[rank], &h, sizeof(h)) != 0 || put(&j->out[rank], path, len) != 0) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

int lfm_join_up(struct lfm *m, const struct lfm_target *t, int64_t value)
{
	if (t->rank < 0 || t->depth < 0) {
		return 0; /* a root's: there is no parent */
	}
	const char *path;
	size_t len;
	parent_path(m, t, &path, &len);
	return queue(m, t->rank, t->root, t->depth, path, len, value);
}

int lfm_join_claim(struct lfm *m, const struct lfm_target *t, const char *key, size_t keylen, int64_t value)
{
	struct lfm_join *j = join(m);
	const char *path;
	size_t len;
	parent_path(m, t, &path, &len);
	if (!j || keylen > UINT32_MAX || len > UINT32_MAX) {
		errno = ENOMEM;
		return -1;
	}
	struct claim_head h = {value, (uint32_t)keylen, t->root, t->depth, (uint32_t)len};
	if (put(&j->claims, &h, sizeof(h)) != 0 || put(&j->claims, key, keylen) != 0 ||
	    put(&j->claims, path, len) != 0) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

/* A claim as rank 0 sorts them. */
struct claim {
	const char *key, *path;
	uint32_t keylen, pathlen, root;
	int32_t depth;
	int64_t value;
	int rank;
};

static int claim_cmp(const void *a, const void *b)
{
	const struct claim *x = a, *y = b;
	size_t n = x->keylen < y->keylen ? x->keylen : y->keylen;
	int c = memcmp(x->key, y->key, n);
	if (c || x->keylen != y->keylen) {
		return c ? c : x->keylen < y->keylen ? -1 : 1;
	}
	if (x->root != y->root) {
		return x->root < y->root ? -1 : 1;
	}
	n = x->pathlen < y->pathlen ? x->pathlen : y->pathlen;
	c = memcmp(x->path, y->path, n);
	return c ? c : (x->pathlen > y->pathlen) - (x->pathlen < y->pathlen);
}

/* Rank 0: the gathered claims (@all, @lens per rank), each key to its first claim. */
static int settle(struct lfm *m, const char *all, const int *lens)
{
	size_t n = 0, cap = 0;
	struct claim *v = NULL;
	const char *p = all;
	for (int r = 0; r < m->size; r++) {
		const char *end = p + lens[r];
		while ((size_t)(end - p) >= sizeof(struct claim_head)) {
			struct claim_head h;
			memcpy(&h, p, sizeof(h));
			p += sizeof(h);
			if ((size_t)(end - p) < (size_t)h.keylen + h.pathlen) {
				break;
			}
			if (n == cap) {
				cap = cap ? 2 * cap : 256;
				struct claim *nv = realloc(v, cap * sizeof(*v));
				if (!nv) {
					free(v);
					return -1;
				}
				v = nv;
			}
			v[n++] = (struct claim){p, p + h.keylen, h.keylen, h.pathlen, h.root, h.depth, h.value, r};
			p += h.keylen + h.pathlen;
		}
		p = end;
	}
	if (n) {
		qsort(v, n, sizeof(*v), claim_cmp);
	}
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (i == 0 || v[i].keylen != v[i - 1].keylen || memcmp(v[i].key, v[i - 1].key, v[i].keylen) != 0) {
			rc = queue(m, v[i].rank, v[i].root, v[i].depth, v[i].path, v[i].pathlen, v[i].value);
		}
	}
	free(v);
	return rc;
}

int lfm_join_claims(struct lfm *m)
{
	struct lfm_join *j = join(m);
	int mine = j && !j->claims.err && j->claims.len <= INT_MAX ? (int)j->claims.len : -1, bad = mine < 0, anybad = 0;
	int rc = MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, m->comm);
	if (rc != MPI_SUCCESS) {
		return lfm_mpi_error(m, "MPI_Allreduce", rc);
	}
	if (anybad) {
		return lfm_mpi_error(m, "claims", MPI_ERR_NO_MEM);
	}
	int *lens = m->rank == 0 ? calloc((size_t)m->size, sizeof(*lens)) : NULL;
	int *displs = m->rank == 0 ? calloc((size_t)m->size, sizeof(*displs)) : NULL;
	if (m->rank == 0 && (!lens || !displs)) {
		free(lens);
		free(displs);
		return lfm_mpi_error(m, "malloc", MPI_ERR_NO_MEM); /* the others wait in the gather: the job fails */
	}
	rc = MPI_Gather(&mine, 1, MPI_INT, lens, 1, MPI_INT, 0, m->comm);
	char *all = NULL;
	long long total = 0;
	for (int r = 0; rc == MPI_SUCCESS && m->rank == 0 && r < m->size; r++) {
		displs[r] = (int)total;
		total += lens[r];
	}
	if (rc == MPI_SUCCESS && m->rank == 0 && (total > INT_MAX || !(all = malloc(total ? (size_t)total : 1)))) {
		rc = MPI_ERR_NO_MEM;
	}
	if (rc == MPI_SUCCESS) {
		rc = MPI_Gatherv(j->claims.p, mine, MPI_BYTE, all, lens, displs, MPI_BYTE, 0, m->comm);
	}
	if (rc == MPI_SUCCESS && m->rank == 0 && settle(m, all, lens) != 0) {
		rc = MPI_ERR_NO_MEM;
	}
	free(all);
	free(lens);
	free(displs);
	free(j->claims.p);
	j->claims = (struct lfm_buf){0};
	return rc == MPI_SUCCESS ? 0 : lfm_mpi_error(m, "gathering the claims", rc);
}

/* Add the up records of @p..@end to this rank's deferred records. */
static void apply(struct lfm *m, const char *p, const char *end)
{
	while ((size_t)(end - p) >= sizeof(struct up_head)) {
		struct up_head h;
		memcpy(&h, p, sizeof(h));
		p += sizeof(h);
		if ((size_t)(end - p) < h.pathlen) {
			return;
		}
		char *path = strndup(p, h.pathlen);
		p += h.pathlen;
		if (!path) {
			lfm_mpi_error(m, "malloc", MPI_ERR_NO_MEM);
			return;
		}
		struct lfm_deferred key = {.path = path, .depth = h.depth, .root = h.root};
		struct lfm_deferred *d = m->ndef ? bsearch(&key, m->def, m->ndef, sizeof(*m->def), lfm_deferred_cmp) : NULL;
		if (d) {
			d->acc += h.value;
		}
		free(path);
	}
}

int lfm_join_exchange(struct lfm *m)
{
	struct lfm_join *j = join(m);
	size_t n = (size_t)m->size;
	int *counts = calloc(4 * n, sizeof(*counts));
	if (!j || !counts) {
		free(counts);
		return lfm_mpi_error(m, "malloc", MPI_ERR_NO_MEM);
	}
	int *sdispl = counts + n, *rcounts = counts + 2 * n, *rdispl = counts + 3 * n;
	long long stotal = 0;
	for (size_t r = 0; r < n; r++) {
		counts[r] = j->out[r].len <= INT_MAX ? (int)j->out[r].len : -1;
		stotal += j->out[r].len;
	}
	char *send = stotal <= INT_MAX ? malloc(stotal ? (size_t)stotal : 1) : NULL;
	int rc = MPI_Alltoall(counts, 1, MPI_INT, rcounts, 1, MPI_INT, m->comm);
	long long rtotal = 0;
	bool bad = !send;
	for (size_t r = 0; r < n; r++) {
		bad |= counts[r] < 0 || rcounts[r] < 0;
		rdispl[r] = (int)rtotal;
		rtotal += rcounts[r] > 0 ? rcounts[r] : 0;
	}
	char *recv = rtotal <= INT_MAX ? malloc(rtotal ? (size_t)rtotal : 1) : NULL;
	bad |= !recv;
	int badall = 0;
	if (rc == MPI_SUCCESS) {
		int b = bad;
		rc = MPI_Allreduce(&b, &badall, 1, MPI_INT, MPI_MAX, m->comm);
	}
	if (rc == MPI_SUCCESS && !badall) {
		long long off = 0;
		for (size_t r = 0; r < n; r++) {
			sdispl[r] = (int)off;
			if (j->out[r].len) {
				memcpy(send + off, j->out[r].p, j->out[r].len);
			}
			off += j->out[r].len;
			j->out[r].len = 0;
		}
		rc = MPI_Alltoallv(send, counts, sdispl, MPI_BYTE, recv, rcounts, rdispl, MPI_BYTE, m->comm);
	}
	if (rc == MPI_SUCCESS && !badall) {
		apply(m, recv, recv + rtotal);
	}
	free(send);
	free(recv);
	free(counts);
	if (rc != MPI_SUCCESS) {
		return lfm_mpi_error(m, "exchanging the scripts' values", rc);
	}
	return badall ? lfm_mpi_error(m, "exchanging the scripts' values", MPI_ERR_NO_MEM) : 0;
}

void lfm_join_free(struct lfm *m)
{
	struct lfm_join *j = m->join;
	if (!j) {
		return;
	}
	for (int r = 0; r < m->size; r++) {
		free(j->out[r].p);
	}
	free(j->out);
	free(j->claims.p);
	free(j);
	m->join = NULL;
}
