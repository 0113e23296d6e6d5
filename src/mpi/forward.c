/*
 * forward.c: what the matches print, carried to rank 0 in whole records.
 *
 * On every rank but 0, standard output and the -fprint files write into
 * memory (lf_out_init_mem, lf_sink_files).  Between two entries, never in
 * the middle of one, a writer holding 64 KiB or more goes to rank 0 as
 * one LFM_TAG_OUT message on outc: a 4-byte stream number (0 for standard
 * output, i + 1 for file i), then the bytes.  Rank 0 appends each chunk to
 * its own writer of that stream between two of its own entries, so
 * records are never split or interleaved, and their order is the order in
 * which they arrived.  At the end each rank says how many chunks it sent
 * (a gather), and rank 0 receives until it has them all.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "lfm.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Sends in flight past this much: wait for rank 0 to take some. */
#define LFM_PENDING_MAX ((size_t)64 << 20)
/* A writer is sent when it holds this much. */
#define LFM_CHUNK ((size_t)64 << 10)

int lfm_isend(struct lfm *m, MPI_Comm comm, int dest, int tag, char *buf, size_t len)
{
	if (m->npend == m->cappend) {
		size_t cap = m->cappend ? 2 * m->cappend : 64;
		struct lfm_pending *p = realloc(m->pend, cap * sizeof(*p));
		if (p) {
			m->pend = p;
		}
		MPI_Request *r = p ? realloc(m->preq, cap * sizeof(*r)) : NULL;
		if (r) {
			m->preq = r;
		}
		int *x = r ? realloc(m->pidx, cap * sizeof(*x)) : NULL;
		if (!x) {
			free(buf);
			return lfm_mpi_error(m, "malloc", MPI_ERR_NO_MEM);
		}
		m->pidx = x;
		m->cappend = cap;
	}
	int rc = MPI_Isend(buf, (int)len, MPI_BYTE, dest, tag, comm, &m->preq[m->npend]);
	if (rc != MPI_SUCCESS) {
		free(buf);
		return lfm_mpi_error(m, "MPI_Isend", rc);
	}
	m->pend[m->npend] = (struct lfm_pending){buf, len};
	m->npend++;
	m->pend_bytes += len;
	return 0;
}

/*
 * One MPI_Testsome for all the sends: MPI_Test on each would make as many
 * turns of MPI's progress loop (and, oversubscribed, as many sched_yield()
 * calls), and a rank sending faster than rank 0 can write holds hundreds.
 */
void lfm_pending_test(struct lfm *m, bool wait)
{
	unsigned us = LFM_NAP_MIN_US;
	while (m->npend > 0) {
		int n = 0;
		int rc = MPI_Testsome((int)m->npend, m->preq, &n, m->pidx, MPI_STATUSES_IGNORE);
		bool gave_up = rc != MPI_SUCCESS;
		if (gave_up) {
			lfm_mpi_error(m, "MPI_Testsome", rc);
		}
		size_t j = 0;
		for (size_t i = 0; i < m->npend; i++) {
			if (gave_up || m->preq[i] == MPI_REQUEST_NULL) {
				free(m->pend[i].buf);
				m->pend_bytes -= m->pend[i].len;
			} else {
				m->pend[j] = m->pend[i];
				m->preq[j++] = m->preq[i];
			}
		}
		m->npend = j;
		if (!wait || m->npend == 0) {
			break;
		}
		if (n > 0) {
			us = LFM_NAP_MIN_US;
		} else {
			lfm_nap(&us);
		}
	}
}

/* Send what @o holds as stream @stream. */
static void send_chunk(struct lfm *m, struct lf_out *o, uint32_t stream)
{
	char *buf = malloc(sizeof(stream) + o->len);
	if (!buf) {
		lfm_mpi_error(m, "malloc", MPI_ERR_NO_MEM);
		return;
	}
	memcpy(buf, &stream, sizeof(stream));
	memcpy(buf + sizeof(stream), o->buf, o->len);
	if (lfm_isend(m, m->outc, 0, LFM_TAG_OUT, buf, sizeof(stream) + o->len) == 0) {
		m->chunks_sent++;
	}
	o->len = 0;
}

void lfm_forward(struct lfm *m, bool all)
{
	if (m->rank == 0) {
		return;
	}
	size_t min = all ? 1 : LFM_CHUNK;
	if (m->out->len >= min) {
		send_chunk(m, m->out, 0);
	}
	for (size_t i = 0; i < m->nfiles; i++) {
		if (m->files[i]->len >= min) {
			send_chunk(m, m->files[i], (uint32_t)i + 1);
		}
	}
	unsigned us = LFM_NAP_MIN_US;
	while (m->pend_bytes > LFM_PENDING_MAX && !m->failed) {
		lfm_pending_test(m, false);
		if (m->pend_bytes > LFM_PENDING_MAX) {
			lfm_nap(&us);
		}
	}
}

/* Rank 0: receive one chunk if one is there. */
static int recv_chunk(struct lfm *m)
{
	MPI_Status st;
	char *buf;
	int n;
	int r = lfm_recv(m, m->outc, MPI_ANY_SOURCE, LFM_TAG_OUT, &buf, &n, &st);
	if (r <= 0) {
		return r;
	}
	m->chunks_recv++;
	uint32_t stream = 0;
	if ((size_t)n >= sizeof(stream)) {
		memcpy(&stream, buf, sizeof(stream));
		struct lf_out *o = stream == 0 ? m->out : stream <= m->nfiles ? m->files[stream - 1] : NULL;
		if (o) {
			lf_out_write(o, buf + sizeof(stream), (size_t)n - sizeof(stream));
		}
	}
	free(buf);
	return 1;
}

void lfm_forward_recv(struct lfm *m)
{
	while (!m->failed && recv_chunk(m) > 0) {
	}
}

void lfm_forward_end(struct lfm *m)
{
	if (m->size == 1) {
		return;
	}
	lfm_forward(m, true);
	uint64_t sent = m->chunks_sent, total = 0;
	int rc = MPI_Reduce(&sent, &total, 1, MPI_UINT64_T, MPI_SUM, 0, m->outc);
	if (rc != MPI_SUCCESS) {
		lfm_mpi_error(m, "MPI_Reduce", rc);
		return;
	}
	unsigned us = LFM_NAP_MIN_US;
	while (m->rank == 0 && m->chunks_recv < total && !m->failed) {
		int r = recv_chunk(m);
		if (r < 0) {
			break;
		}
		if (r > 0) {
			us = LFM_NAP_MIN_US;
		} else {
			lfm_nap(&us);
		}
	}
	lfm_pending_test(m, true);
}
