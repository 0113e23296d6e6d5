/*
 * work.c: sharing the work items between the ranks, and knowing when the
 * walk is over.
 *
 * Stealing.  A rank with no item sends LFM_TAG_REQ to a random other rank
 * and waits for the answer (handling everything else meanwhile, and
 * sleeping a little longer after each empty answer, so that idle ranks do
 * not take the CPU from busy ones).  The victim answers with half of its
 * queue, the oldest (shallowest, likely the largest subtrees) items first,
 * or with LFM_TAG_NOWORK; then it remembers that a rank is hungry, and its
 * walk turns the next directories it would read into items (walk.c) until
 * its queue holds as many as were asked for.  So a directory costs a
 * message only when it moves, and a rank walks on without any while all
 * are busy.
 *
 * Termination: Safra's algorithm (Dijkstra, EWD998).  Only LFM_TAG_WORK
 * messages carry work: every rank counts those it sent minus those it
 * received (count), and turns black when it receives one.  Requests and
 * empty answers wake no one up: a rank waiting for an answer is passive.
 * A token travels the ring 0 -> 1 -> ... -> n-1 -> 0, each rank passing
 * it on only while passive (no item, no walk), adding its count and
 * blackening it if the rank is black, then whitening itself.  When the
 * token comes back to a passive, white rank 0 white and with a sum that
 * makes rank 0's count zero, every rank was passive when the token passed
 * and no work message is in flight: a message sent after the token passed
 * its sender would be counted in flight (the sums would not cancel) or,
 * if received by a rank the token had already passed, would have made that
 * rank black, and that blackness reaches rank 0 with the next token.  No
 * FIFO channel or bound on delays is assumed, so the argument holds under
 * every interleaving MPI may deliver.  Rank 0 then sends LFM_TAG_TERM.
 *
 * Drain: requests and answers may still be in flight after the end.  No
 * rank sends on comm once it has the end; each has counted what it sent
 * to every other rank, and an all-to-all of those counts tells each how
 * many messages it still has to receive (and drop).
 *
 * Waiting: a rank that waits for others (an answer, the drain, rank 0
 * taking its output, a barrier) polls and naps (lfm_nap), never blocks in
 * MPI: OpenMPI's blocking calls spin, and in a job with more ranks than
 * cores each turn of their loop is a sched_yield() that takes the CPU from
 * the ranks with work (and counts as the waiting rank's CPU time).
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "lfm.h"

#include "diag.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int lfm_mpi_error(struct lfm *m, const char *what, int rc)
{
	char msg[MPI_MAX_ERROR_STRING];
	int len = 0;
	if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS) {
		len = 0;
	}
	msg[len] = '\0';
	fprintf(stderr, "%s: rank %d: %s failed: %s: a rank failed, the run stops and deletes nothing more\n",
		m->progname, m->rank, what, msg);
	m->failed = true;
	return -1;
}

void lfm_item_free(struct lfm_item *it)
{
	free(it->path);
	free(it->anc);
	it->path = NULL;
	it->anc = NULL;
}

int lfm_work_init(struct lfm *m)
{
	m->sent_to = calloc((size_t)m->size, sizeof(*m->sent_to));
	m->recv_from = calloc((size_t)m->size, sizeof(*m->recv_from));
	if (!m->sent_to || !m->recv_from) {
		return -1;
	}
	m->have_token = m->rank == 0;
	m->backoff_us = LFM_NAP_MIN_US;
	srand((unsigned)(m->rank * 7919 + 1) ^ (unsigned)getpid());
	return 0;
}

void lfm_work_free(struct lfm *m)
{
	for (size_t i = 0; i < m->qlen; i++) {
		lfm_item_free(&m->q[m->qhead + i]);
	}
	free(m->q);
	free(m->sent_to);
	free(m->recv_from);
	m->q = NULL;
	m->qlen = 0;
}

int lfm_push(struct lfm *m, struct lfm_item *it)
{
	if (m->qhead + m->qlen == m->qcap) {
		if (m->qhead > m->qcap / 2) {
			memmove(m->q, m->q + m->qhead, m->qlen * sizeof(*m->q));
			m->qhead = 0;
		} else {
			size_t cap = m->qcap ? 2 * m->qcap : 64;
			struct lfm_item *q = realloc(m->q, cap * sizeof(*q));
			if (!q) {
				return -1;
			}
			m->q = q;
			m->qcap = cap;
		}
	}
	m->q[m->qhead + m->qlen++] = *it;
	return 0;
}

/* ---- items on the wire -------------------------------------------------- */

void lfm_put(struct lfm_buf *b, const void *data, size_t n)
{
	if (b->err || n == 0) {
		return; /* @data may be NULL then (an item without ancestors) */
	}
	if (b->cap - b->len < n) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap - b->len < n) {
			cap *= 2;
		}
		char *p = realloc(b->p, cap);
		if (!p) {
			b->err = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

/* The items [from, from + n) of the queue, serialized (and freed). */
static char *pack(struct lfm *m, size_t from, size_t n, size_t *len)
{
	struct lfm_buf b = {0};
	uint32_t count = (uint32_t)n;
	lfm_put(&b, &count, sizeof(count));
	for (size_t i = 0; i < n; i++) {
		struct lfm_item *it = &m->q[from + i];
		uint64_t pathlen = it->pathlen;
		int32_t depth = it->depth;
		uint8_t is_root = it->is_root;
		lfm_put(&b, &pathlen, sizeof(pathlen));
		lfm_put(&b, &depth, sizeof(depth));
		lfm_put(&b, &it->root, sizeof(it->root));
		lfm_put(&b, &it->nanc, sizeof(it->nanc));
		lfm_put(&b, &is_root, sizeof(is_root));
		lfm_put(&b, &it->id, sizeof(it->id));
		lfm_put(&b, &it->origin, sizeof(it->origin));
		lfm_put(&b, it->path, it->pathlen);
		lfm_put(&b, it->anc, it->nanc * sizeof(*it->anc));
	}
	if (b.err) {
		free(b.p);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		lfm_item_free(&m->q[from + i]);
	}
	*len = b.len;
	return b.p;
}

static bool take(const char **p, const char *end, void *out, size_t n)
{
	if ((size_t)(end - *p) < n) {
		return false;
	}
	if (n == 0) {
		return true; /* @out may be NULL then */
	}
	memcpy(out, *p, n);
	*p += n;
	return true;
}

/* Queue the items of a LFM_TAG_WORK message. */
static int unpack(struct lfm *m, const char *data, size_t len)
{
	const char *p = data, *end = data + len;
	uint32_t count;
	if (!take(&p, end, &count, sizeof(count))) {
		return -1;
	}
	for (uint32_t i = 0; i < count; i++) {
		struct lfm_item it = {0};
		uint64_t pathlen;
		int32_t depth;
		uint8_t is_root;
		if (!take(&p, end, &pathlen, sizeof(pathlen)) || !take(&p, end, &depth, sizeof(depth)) ||
		    !take(&p, end, &it.root, sizeof(it.root)) || !take(&p, end, &it.nanc, sizeof(it.nanc)) ||
		    !take(&p, end, &is_root, sizeof(is_root)) || !take(&p, end, &it.id, sizeof(it.id)) ||
		    !take(&p, end, &it.origin, sizeof(it.origin)) || (size_t)(end - p) < pathlen) {
			return -1;
		}
		it.pathlen = pathlen;
		it.depth = depth;
		it.is_root = is_root;
		it.path = malloc(pathlen + 1);
		it.anc = it.nanc ? malloc(it.nanc * sizeof(*it.anc)) : NULL;
		if (!it.path || (it.nanc && !it.anc)) {
			lfm_item_free(&it);
			return -1;
		}
		memcpy(it.path, p, pathlen);
		it.path[pathlen] = '\0';
		p += pathlen;
		if (!take(&p, end, it.anc, it.nanc * sizeof(*it.anc)) || lfm_push(m, &it) != 0) {
			lfm_item_free(&it);
			return -1;
		}
		m->items_got++;
	}
	return 0;
}

/* ---- messages ----------------------------------------------------------- */

static void send_ctl(struct lfm *m, int dest, int tag, const void *data, size_t len)
{
	char *buf = NULL;
	if (len) {
		buf = malloc(len);
		if (!buf) {
			lfm_mpi_error(m, "malloc", MPI_ERR_NO_MEM);
			return;
		}
		memcpy(buf, data, len);
	}
	if (lfm_isend(m, m->comm, dest, tag, buf, len) == 0) {
		m->sent_to[dest]++;
	}
}

/* A request from @src: half of the queue, oldest first, or no work. */
static void answer(struct lfm *m, int src)
{
	if (m->qlen == 0) {
		send_ctl(m, src, LFM_TAG_NOWORK, NULL, 0);
		if (m->hungry < (unsigned)m->size) {
			m->hungry++;
		}
		return;
	}
	size_t n = (m->qlen + 1) / 2;
	size_t len;
	char *buf = pack(m, m->qhead, n, &len);
	if (!buf) {
		send_ctl(m, src, LFM_TAG_NOWORK, NULL, 0);
		return;
	}
	m->qhead += n;
	m->qlen -= n;
	m->items_given += n;
	m->restock = true;
	if (lfm_isend(m, m->comm, src, LFM_TAG_WORK, buf, len) == 0) {
		m->sent_to[src]++;
		m->count++;
	}
}

/* Handle one message that arrived on comm. */
static void handle(struct lfm *m, int src, int tag, const char *data, size_t len)
{
	switch (tag) {
	case LFM_TAG_REQ:
		answer(m, src);
		break;
	case LFM_TAG_WORK:
		m->count--;
		m->black = true;
		m->waiting = false;
		m->backoff_us = LFM_NAP_MIN_US;
		if (unpack(m, data, len) != 0) {
			lfm_mpi_error(m, "receiving work", MPI_ERR_TRUNCATE);
		}
		break;
	case LFM_TAG_NOWORK:
		m->waiting = false;
		break;
	case LFM_TAG_TOKEN: {
		int64_t t[2] = {0, 1};
		memcpy(t, data, len < sizeof(t) ? len : sizeof(t));
		m->have_token = true;
		m->tok_q = t[0];
		m->tok_black = t[1] != 0;
		break;
	}
	case LFM_TAG_TERM:
		m->term = true;
		break;
	default:
		break;
	}
}

int lfm_recv(struct lfm *m, MPI_Comm comm, int src, int tag, char **buf, int *len, MPI_Status *st)
{
	int flag = 0;
	int rc = MPI_Iprobe(src, tag, comm, &flag, st);
	if (rc != MPI_SUCCESS) {
		return lfm_mpi_error(m, "MPI_Probe", rc);
	}
	if (!flag) {
		return 0;
	}
	*len = 0;
	MPI_Get_count(st, MPI_BYTE, len);
	*buf = malloc(*len > 0 ? (size_t)*len : 1);
	if (!*buf) {
		return lfm_mpi_error(m, "malloc", MPI_ERR_NO_MEM);
	}
	rc = MPI_Recv(*buf, *len, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, comm, MPI_STATUS_IGNORE);
	if (rc != MPI_SUCCESS) {
		free(*buf);
		return lfm_mpi_error(m, "MPI_Recv", rc);
	}
	return 1;
}

/*
 * Receive one message from @src (MPI_ANY_SOURCE) if there is one.
 * @return 1 if one was handled (or dropped, with @drop), 0 if none, -1 on
 *         an MPI failure
 */
static int recv_one(struct lfm *m, int src, bool drop)
{
	MPI_Status st;
	char *buf;
	int n;
	int r = lfm_recv(m, m->comm, src, MPI_ANY_TAG, &buf, &n, &st);
	if (r <= 0) {
		return r;
	}
	m->recv_from[st.MPI_SOURCE]++;
	if (!drop) {
		handle(m, st.MPI_SOURCE, st.MPI_TAG, buf, (size_t)n);
	}
	free(buf);
	return 1;
}

void lfm_poll(struct lfm *m)
{
	if (m->size == 1) {
		return;
	}
	while (!m->failed && recv_one(m, MPI_ANY_SOURCE, false) > 0) {
	}
	if (m->rank == 0) {
		lfm_forward_recv(m);
	} else {
		lfm_forward(m, false);
	}
	lfm_pending_test(m, false);
}

/* ---- the idle rank -------------------------------------------------------- */

/* Passive with the token: pass it on, or (rank 0) decide the end. */
static void pass_token(struct lfm *m)
{
	int next = (m->rank + 1) % m->size;
	if (m->rank == 0) {
		if (m->probe_out) {
			/* The token is back. */
			m->probe_out = false;
			if (!m->tok_black && !m->black && m->tok_q + m->count == 0) {
				m->term = true;
				for (int r = 1; r < m->size; r++) {
					send_ctl(m, r, LFM_TAG_TERM, NULL, 0);
				}
				return;
			}
		}
		int64_t t[2] = {0, 0};
		m->black = false;
		m->have_token = false;
		m->probe_out = true;
		send_ctl(m, next, LFM_TAG_TOKEN, t, sizeof(t));
		return;
	}
	int64_t t[2] = {m->tok_q + m->count, m->tok_black || m->black};
	m->black = false;
	m->have_token = false;
	send_ctl(m, next, LFM_TAG_TOKEN, t, sizeof(t));
}

void lfm_nap(unsigned *us)
{
	struct timespec ts = {0, (long)*us * 1000};
	nanosleep(&ts, NULL);
	if (*us < LFM_NAP_MAX_US) {
		*us = *us * 2 < LFM_NAP_MAX_US ? *us * 2 : LFM_NAP_MAX_US;
	}
}

int lfm_barrier(struct lfm *m)
{
	MPI_Request req;
	int rc = MPI_Ibarrier(m->comm, &req);
	if (rc != MPI_SUCCESS) {
		return lfm_mpi_error(m, "MPI_Ibarrier", rc);
	}
	unsigned us = LFM_NAP_MIN_US;
	for (;;) {
		int done = 0;
		rc = MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		if (rc != MPI_SUCCESS) {
			return lfm_mpi_error(m, "MPI_Ibarrier", rc);
		}
		if (done) {
			return 0;
		}
		uint64_t before = m->chunks_recv;
		if (m->rank == 0) {
			lfm_forward_recv(m);
		}
		lfm_pending_test(m, false);
		if (m->chunks_recv != before) {
			us = LFM_NAP_MIN_US;
		} else {
			lfm_nap(&us);
		}
	}
}

/* Receive and drop what is still in flight to us on comm (see the top). */
static void drain(struct lfm *m)
{
	uint64_t *expect = calloc((size_t)m->size, sizeof(*expect));
	if (!expect) {
		lfm_mpi_error(m, "malloc", MPI_ERR_NO_MEM);
		return;
	}
	int rc = MPI_Alltoall(m->sent_to, 1, MPI_UINT64_T, expect, 1, MPI_UINT64_T, m->comm);
	if (rc != MPI_SUCCESS) {
		lfm_mpi_error(m, "MPI_Alltoall", rc);
		free(expect);
		return;
	}
	unsigned us = LFM_NAP_MIN_US;
	for (int r = 0; r < m->size && !m->failed; r++) {
		while (m->recv_from[r] < expect[r] && !m->failed) {
			int got = recv_one(m, r, true);
			if (got < 0) {
				break;
			}
			if (got) {
				us = LFM_NAP_MIN_US;
			} else {
				lfm_nap(&us);
			}
		}
	}
	free(expect);
	lfm_pending_test(m, true);
}

void lfm_work_run(struct lfm *m)
{
	uint64_t idle_since = 0; /* --stats: how long the rank waits for work */
	while (!m->failed) {
		lfm_poll(m);
		if (m->term) {
			break;
		}
		if (m->qlen > 0) {
			if (idle_since) {
				m->idle_us += lfm_now_us() - idle_since;
				idle_since = 0;
			}
			/* Ours: the newest, deepest item (its parent's subtree is warm). */
			struct lfm_item it = m->q[m->qhead + --m->qlen];
			lfm_walk_item(m, &it);
			lfm_item_free(&it);
			if (lf_run_must_stop(m->run)) {
				/* A fatal error here (a failed write, a -lua error): drop
				 * the rest, as plain luafind stops; no deferred phase. */
				for (size_t i = 0; i < m->qlen; i++) {
					lfm_item_free(&m->q[m->qhead + i]);
				}
				m->qlen = 0;
			}
			continue;
		}
		if (m->size == 1) {
			break;
		}
		/* Passive. */
		if (!idle_since) {
			idle_since = lfm_now_us();
		}
		if (m->have_token) {
			pass_token(m);
			if (m->term) {
				break;
			}
		}
		if (!m->waiting) {
			int victim = rand() % (m->size - 1);
			victim += victim >= m->rank;
			send_ctl(m, victim, LFM_TAG_REQ, NULL, 0);
			m->waiting = true;
			m->requests++;
		}
		lfm_nap(&m->backoff_us);
	}
	if (idle_since) {
		m->idle_us += lfm_now_us() - idle_since;
	}
	if (m->size > 1 && !m->failed) {
		drain(m);
	}
}
