/*
 * sink.c: the output streams of find's output actions.
 *
 * Output files (-fprint FILE...) are opened and truncated when parsed, as
 * GNU does.  Two actions naming the same file (same device and inode) share
 * one buffered stream, through the context's list; /dev/stdout and
 * /dev/stderr are recognised by name and mean the program's own standard
 * output and error.  Files are flushed and closed by the finish hook, where
 * a write error is reported once per file and sets the exit status.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "sink.h"

#include "color.h"
#include "diag.h"
#include "parse.h"
#include "primary.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


enum sink_kind {
	SINK_STDOUT, /* the evaluation's own writer (ev->out) */
	SINK_STDERR, /* fd 2, flushed after every action, as stdio's stderr */
	SINK_FILE,
};

/* An output stream, shared by every action that names the same file. */
struct lf_sink {
	struct lf_ctx *ctx; /* whose list it is on */
	struct lf_sink *next;
	enum sink_kind kind;
	const char *name; /* as given (argv), for messages */
	dev_t dev;
	ino_t ino;
	struct lf_out out; /* SINK_STDERR and SINK_FILE */
	int refs;
	int active;  /* users whose walk has not finished: the last one closes */
	bool tty;    /* names are shown with '?' for what cannot be displayed */
	bool closed; /* the finish hook has run */
};

/* Open sinks are the context's (ctx->sinks), so that a file named twice is
 * opened once (GNU's sharefile). */
/*
 * The sink for @name, opened (created, truncated) now.  On failure, reports
 * "'name': reason" against argument @argoff and returns NULL.
 */
struct lf_sink *lf_sink_open(struct lf_parser *p, int argoff, const char *name)
{
	enum sink_kind kind = SINK_FILE;
	if (strcmp(name, "/dev/stdout") == 0) {
		kind = SINK_STDOUT;
	} else if (strcmp(name, "/dev/stderr") == 0) {
		kind = SINK_STDERR;
	}

	int fd = -1;
	struct stat st = {0};
	if (kind == SINK_FILE) {
		/* Truncated below only if no open sink is the same file already. */
		fd = open(name, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
		if (fd < 0 || fstat(fd, &st) != 0) {
			int err = errno;
			if (fd >= 0) {
				close(fd);
			}
			char *q = lf_diag_quoted(name);
			lf_parse_error(p, argoff, "%s: %s", q ? q : name, strerror(err));
			free(q);
			return NULL;
		}
	}

	struct lf_ctx *ctx = lf_parser_ctx(p);
	for (struct lf_sink *s = ctx->sinks; s; s = s->next) {
		if (s->kind == kind && !s->closed &&
		    (kind != SINK_FILE || (s->dev == st.st_dev && s->ino == st.st_ino))) {
			if (fd >= 0) {
				close(fd);
			}
			s->refs++;
			s->active++;
			return s;
		}
	}

	if (kind == SINK_FILE && S_ISREG(st.st_mode) && ftruncate(fd, 0) != 0) {
		int err = errno;
		close(fd);
		char *q = lf_diag_quoted(name);
		lf_parse_error(p, argoff, "%s: %s", q ? q : name, strerror(err));
		free(q);
		return NULL;
	}
	struct lf_sink *s = calloc(1, sizeof(*s));
	if (!s || (kind != SINK_STDOUT && lf_out_init(&s->out, kind == SINK_FILE ? fd : STDERR_FILENO) != 0)) {
		lf_parse_error(p, argoff, "%s", strerror(ENOMEM));
		free(s);
		if (fd >= 0) {
			close(fd);
		}
		return NULL;
	}
	s->kind = kind;
	s->name = name;
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	s->refs = 1;
	s->active = 1;
	s->tty = isatty(kind == SINK_FILE ? fd : kind == SINK_STDOUT ? STDOUT_FILENO : STDERR_FILENO);
	s->ctx = ctx;
	s->next = ctx->sinks;
	ctx->sinks = s;
	return s;
}

/*
 * Report a failure to write to @s: "'name': reason", with GNU's names for the
 * standard streams; the exit status becomes 1.
 */
void lf_sink_report(const struct lf_sink *s, struct lf_eval *ev, int err)
{
	lf_out_flush(ev->out);
	FILE *fp = lf_diag_begin(s->ctx);
	if (s->kind == SINK_FILE) {
		lf_diag_quote(fp, s->name, strlen(s->name));
	} else {
		fputs(s->kind == SINK_STDOUT ? "'standard output'" : "'standard error'", fp);
	}
	fprintf(fp, ": %s", strerror(err));
	lf_diag_end(s->ctx, LF_ERROR_RUNTIME, NULL, 0, err);
	ev->status = 1;
}

/*
 * One user of a sink is done with its walk: flush, and close when it was the
 * last (several lf.find expressions may share one file); report the first
 * write error.
 */
void lf_sink_finish(struct lf_sink *s, struct lf_eval *ev)
{
	if (s->closed) {
		return;
	}
	if (--s->active > 0) {
		if (s->kind != SINK_STDOUT) {
			lf_out_flush(&s->out); /* an error is kept and reported by the last */
		}
		return;
	}
	s->closed = true;
	if (s->kind == SINK_STDOUT) {
		return; /* main flushes and checks standard output */
	}
	int fd = s->out.fd;
	lf_out_close(&s->out);
	int err = s->out.err;
	if (s->kind == SINK_FILE && fd >= 0 && close(fd) != 0 && !err) { /* fd -1: captured */
		err = errno;
	}
	if (err) {
		lf_sink_report(s, ev, err);
	}
}

void lf_sink_release(struct lf_sink *s, bool unfinished)
{
	if (unfinished) {
		s->active--; /* abandoned: the others need not wait */
	}
	if (--s->refs > 0) {
		return;
	}
	if (!s->closed && s->kind != SINK_STDOUT) {
		/* The walk was abandoned: flush what we have, quietly. */
		int fd = s->out.fd;
		lf_out_close(&s->out);
		if (s->kind == SINK_FILE && fd >= 0) {
			close(fd);
		}
	}
	for (struct lf_sink **pp = &s->ctx->sinks; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	}
	free(s);
}

/* The writer an action uses for the current entry. */
struct lf_out *lf_sink_begin(struct lf_sink *s, struct lf_eval *ev)
{
	if (s->kind == SINK_STDOUT) {
		return ev->out;
	}
	if (s->kind == SINK_STDERR) {
		lf_out_flush(ev->out); /* keep the order of the two streams */
	}
	/* Colored as bfs: a file only if it is a terminal, even under -color. */
	enum lf_color_mode mode = (enum lf_color_mode)ev->cmd->color;
	s->out.colors = lf_color_wanted(mode, s->tty, s->kind == SINK_FILE) ? s->ctx->colors : NULL;
	s->out.links = s->out.colors ? ev->links : NULL;
	return &s->out;
}

void lf_sink_end(struct lf_sink *s)
{
	if (s->kind == SINK_STDERR) {
		lf_out_flush(&s->out);
	}
}

bool lf_sink_tty(const struct lf_sink *s)
{
	return s->tty;
}

size_t lf_sink_files(struct lf_ctx *ctx, struct lf_out **outs, size_t max, bool capture)
{
	/* The list is newest first: count, then fill from the end (oldest first). */
	size_t n = 0;
	for (struct lf_sink *s = ctx->sinks; s; s = s->next) {
		n += s->kind == SINK_FILE;
	}
	size_t i = n;
	for (struct lf_sink *s = ctx->sinks; s; s = s->next) {
		if (s->kind != SINK_FILE) {
			continue;
		}
		i--;
		if (capture && s->out.fd >= 0) {
			struct lf_out mem;
			if (lf_out_init_mem(&mem) != 0) {
				return (size_t)-1;
			}
			close(s->out.fd);
			free(s->out.buf);
			s->out = mem;
			s->tty = false;
		}
		if (i < max) {
			outs[i] = &s->out;
		}
	}
	return n;
}
