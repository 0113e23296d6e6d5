-- counters.lua: laziness, proved by the core's counters.  Reading name,
-- path, type, depth, ino, visit or root costs no stat; the first stat field
-- read costs one stat per entry and the others are cached; on a filesystem
-- without d_type (simulated: getdents64 with every d_type erased by an
-- LD_PRELOAD shim), the core stats each entry once to learn its type, and
-- nothing more is needed afterwards.

local T = dofile((arg[0]:match("^(.*)/") or ".") .. "/helper.lua")
local lf = T.lf
local work = T.workdir()
local root = work .. "/t"

-- 10 directories of 20 files, 2 links: 1 + 10 + 200 + 2 entries.
T.sh("mkdir -p " .. T.q(root) .. " && cd " .. T.q(root) ..
  " && for d in 0 1 2 3 4 5 6 7 8 9; do mkdir d$d; for f in $(seq 1 20); do" ..
  " echo $f > d$d/f$f.c; done; done && ln -s d0 link && ln -s nowhere broken")
local ENTRIES = 213
local FILES = 200

-- Walk reading `fields` of every entry (or of files only); return the stats.
local function walk(fields, opts, files_only)
  opts = opts or {}
  opts[1] = root
  local it, s, c, w = lf.walk(opts)
  local n = 0
  for e in it, s, c, w do
    n = n + 1
    if not files_only or e.type == "f" then
      for _, f in ipairs(fields) do local _ = e[f] end
    end
  end
  local st = w:stats()
  assert(st.entries == n)
  return st, n
end

-- No stat for the fields from the directory entry (the root's one stat is
-- the walk's, made to learn what the root is).
do
  local st, n = walk{"name", "path", "type", "depth", "ino", "visit", "root", "error"}
  assert(n == ENTRIES, n)
  assert(st.stats == 1 and st.stats_follow == 0 and st.fd_stats == 0,
    ("stats=%d stats_follow=%d fd_stats=%d"):format(st.stats, st.stats_follow, st.fd_stats))
  assert(st.opens == 11 and st.getdents >= 11)
  for _, order in ipairs{"post", "both", "breadth"} do
    local s2 = walk({"name", "type"}, {order = order})
    assert(s2.stats == 1 and s2.stats_follow == 0, order)
  end
  -- Methods that need no stat: prune, snapshot().
  local it, s, c, w = lf.walk(root)
  for e in it, s, c, w do local _ = e:snapshot() end
  assert(w:stats().stats == 1, "snapshot() without stat fields")
end

-- One stat per entry for size, however many stat fields are read.
do
  local st = walk{"size"}
  assert(st.stats == ENTRIES and st.stats_follow == 0, st.stats)
  st = walk{"size", "mtime", "mode", "uid", "user", "nlink", "size", "blocks", "ctime_nsec", "perm"}
  assert(st.stats == ENTRIES and st.stats_follow == 0, st.stats)
  st = walk({"size"}, {}, true)
  assert(st.stats == 1 + FILES, "only the entries read: " .. st.stats)
  -- stat() and snapshot(true) share the cache.
  local it, s, c, w = lf.walk(root)
  for e in it, s, c, w do
    local _ = e.size
    local t = e:stat()
    local u = e:snapshot(true)
    assert(t.size == u.size)
    -- (Not the root: the core keeps a root's d_type unknown, so following
    -- it is a second stat.  One per run.)
    if e.type ~= "l" and e.depth > 0 then local _ = e:stat(true) end
  end
  st = w:stats()
  assert(st.stats == ENTRIES and st.stats_follow == 0, "a non-link's stat serves both modes")
end

-- Following links: the links' targets cost stats_follow, others nothing.
do
  local st = walk({"name", "type"}, {follow = "always"})
  assert(st.stats_follow >= 2, "links are stat'ed to be followed")
  local st2 = walk({"name", "type"}, {follow = "never"})
  assert(st2.stats_follow == 0)
end

-- lf.stats() adds up the walks.
do
  local a = lf.stats()
  walk{"size"}
  walk{"name"}
  local b = lf.stats()
  assert(b.stats - a.stats == ENTRIES + 1 and b.entries - a.entries == 2 * ENTRIES)
end

-- DT_UNKNOWN: the core stats every entry once (the type is needed to
-- decide whether to descend), and reading type and size adds nothing.
do
  local shim = os.getenv("LUAFIND_TEST_DTUNKNOWN")
  if not shim or shim == "" then
    T.skip("counters: DT_UNKNOWN", "LUAFIND_TEST_DTUNKNOWN is not set")
  else
    local code = ([[
      local lf = require "luafind"
      local function run(fields)
        local it, s, c, w = lf.walk(%q)
        local types = {}
        for e in it, s, c, w do
          for _, f in ipairs(fields) do local _ = e[f] end
          types[e.type] = (types[e.type] or 0) + 1
        end
        local st = w:stats()
        return st.stats, st.stats_follow, st.entries, types.f, types.d, types.l
      end
      print(run{"name"})
      print(run{"name", "type", "size", "mtime"})
    ]]):format(root)
    local out = T.run_lua(work, code, "LD_PRELOAD=" .. T.q(T.preload(shim)))
    local lines = T.lines(out)
    local want = ("%d\t0\t%d\t%d\t11\t2"):format(ENTRIES, ENTRIES, FILES)
    assert(lines[1] == want, "DT_UNKNOWN, name only: " .. out)
    assert(lines[2] == want, "DT_UNKNOWN, type and size: " .. out)
    -- Without the shim, the same walk makes one stat (the root's).
    local plain = T.lines(T.run_lua(work, code))
    assert(plain[1] == ("1\t0\t%d\t%d\t11\t2"):format(ENTRIES, FILES), plain[1])
  end
end

-- The -lua primary (through the test host, as the CLI uses lfcli.h).
do
  local host = T.host()
  local function host_stats(expr, extra)
    local out = T.capture(T.q(host) .. " --stats " .. (extra or "") .. " " .. T.q(root) ..
      " -lua " .. T.q(expr) .. " 2>&1 >/dev/null")
    local stats = tonumber(out:match(" stats=(%d+)"))
    local entries = tonumber(out:match(" entries=(%d+)"))
    return assert(stats, out), entries
  end
  local s, n = host_stats('name:match("%.c$")')
  assert(n == ENTRIES and s == 1, "-lua name: " .. s)
  assert(host_stats('type == "f" and path:find("d1/") and depth == 2') == 1)
  assert(host_stats('size > 100') == ENTRIES)
  assert(host_stats('type == "f" and size > 1') == 1 + FILES)
  assert(host_stats('size > 1 and mtime > 0 and user') == ENTRIES)
end

T.ok("counters")

T.done()
