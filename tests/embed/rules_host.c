/*
 * rules_host.c: a host that lets its users choose files with Lua rules, the
 * tutorial of luafind(3)'s BRIDGE section.
 *
 *	rules_host [-v] RULES ROOT...
 *
 * RULES is a Lua file returning a function that takes an entry and returns
 * whether the file is selected:
 *
 *	return function(e)
 *	  return e.type == "f" and e.name:match("%.c$") and e.size > 0
 *	end
 *
 * The rules run in a sandbox (lf_sandbox_new: 64 MiB, 10 million
 * instructions per entry, no io, no os.execute, no deleting): the users'
 * code cannot act, loop forever or eat the machine.  The walk is the
 * host's own, in C (lf_walk_*); each entry reaches the rule through the
 * bridge (lf_lua_push_entry) as the lazy entry object of luafind.walk, so a
 * rule that reads only e.name and e.type costs no stat.
 * Selected paths go to standard output.  SIGINT cancels the walk cleanly:
 * every directory fd is closed, the exit status is 130.  With -v, the
 * walk's counters go to standard error at the end.
 */
#include <luafind/luafind.h>

#include <errno.h>
#include <inttypes.h>
#include <lauxlib.h>
#include <lua.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

/* The walk SIGINT cancels: lf_walk_cancel() is async-signal-safe. */
static struct lf_walk *volatile current;

static void on_sigint(int sig)
{
	(void)sig;
	struct lf_walk *w = current;
	if (w) {
		lf_walk_cancel(w);
	}
}

/* Open fds, for -v's check that a cancelled walk closes all of its own. */
static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;
	for (struct dirent *de; d && (de = readdir(d));) {
		n += de->d_name[0] != '.';
	}
	if (d) {
		closedir(d);
	}
	return n;
}

/* Load the rules (text only): a chunk returning a function, left on the stack. */
static int load_rules(lua_State *L, const char *file)
{
	if (luaL_loadfilex(L, file, "t") != LUA_OK || lf_sandbox_pcall(L, 0, 1, 0) != LUA_OK) {
		fprintf(stderr, "rules_host: %s\n", lua_tostring(L, -1));
		return -1;
	}
	if (!lua_isfunction(L, -1)) {
		fprintf(stderr, "rules_host: %s: must return a function of the entry\n", file);
		return -1;
	}
	return 0;
}

/* Ask the rule (at @rule) about @e: 1 selected, 0 not, -1 after a message. */
static int ask(lua_State *L, int rule, struct lf_walk *w, struct lf_entry *e)
{
	lua_pushvalue(L, rule);
	lf_lua_push_entry(L, w, e);
	if (lf_sandbox_pcall(L, 1, 1, 0) != LUA_OK) { /* a whole budget per entry */
		fprintf(stderr, "rules_host: %s: %s\n", e->path, luaL_tolstring(L, -1, NULL));
		lua_pop(L, 2);
		return -1;
	}
	int selected = lua_toboolean(L, -1);
	lua_pop(L, 1);
	return selected;
}

int main(int argc, char **argv)
{
	int verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
	if (argc - verbose < 3) {
		fprintf(stderr, "usage: rules_host [-v] RULES ROOT...\n");
		return 2;
	}
	struct lf_sandbox_limits limits = {.max_memory = 64 << 20, .max_steps = 10000000};
	lua_State *L = lf_sandbox_new(&limits);
	if (!L) {
		perror("rules_host: lf_sandbox_new");
		return 1;
	}
	if (load_rules(L, argv[1 + verbose]) != 0) {
		lua_close(L);
		return 2;
	}
	int rule = lua_gettop(L);

	int fds_before = count_fds();
	struct lf_walk_opts opts = LF_WALK_OPTS_INIT;
	opts.roots = (const char *const *)argv + 2 + verbose;
	opts.nroots = (size_t)(argc - 2 - verbose);
	struct lf_walk *w = lf_walk_open(&opts);
	if (!w) {
		perror("rules_host");
		lua_close(L);
		return 1;
	}
	struct sigaction sa = {.sa_handler = on_sigint};
	sigemptyset(&sa.sa_mask);
	current = w;
	sigaction(SIGINT, &sa, NULL);

	int status = 0, r;
	struct lf_entry *e;
	while ((r = lf_walk_next(w, &e)) > 0) {
		if (e->visit == LF_VISIT_ERROR) {
			fprintf(stderr, "rules_host: %s: %s\n", e->path, strerror(e->error));
			status = 1;
			continue;
		}
		int selected = ask(L, rule, w, e);
		if (selected < 0) {
			status = 1; /* a rule that fails selects nothing */
		} else if (selected) {
			printf("%s\n", e->path);
		}
	}
	if (r < 0 && errno == ECANCELED) {
		fprintf(stderr, "rules_host: interrupted\n");
		status = 130;
	} else if (r < 0) {
		perror("rules_host");
		status = 1;
	}
	current = NULL;
	if (verbose) {
		const struct lf_counters *c = lf_walk_counters(w);
		fprintf(stderr, "rules_host: entries=%" PRIu64 " stats=%" PRIu64 " stats_follow=%" PRIu64 "\n",
			c->entries, c->stats, c->stats_follow);
	}
	lf_lua_walk_done(L, w); /* entries Lua kept are stale now, not dangling */
	lf_walk_close(w);
	if (verbose && count_fds() != fds_before) {
		fprintf(stderr, "rules_host: %d fds left open\n", count_fds() - fds_before);
		status = 1;
	}
	lua_close(L);
	fflush(stdout);
	return status;
}
