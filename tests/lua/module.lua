-- module.lua: require "luafind", its fields, units and time helpers, and
-- that loading it defines no global.

local before = {}
for k in pairs(_G) do before[k] = true end
local lf = require "luafind"
for k in pairs(_G) do
  assert(before[k], "require 'luafind' defined the global " .. tostring(k))
end

local T = dofile((arg[0]:match("^(.*)/") or ".") .. "/helper.lua")
local core = require "luafind.core"

assert(require "luafind" == lf, "require returns the same table")
assert(lf.core == core)
assert(type(lf.version) == "string" and lf.version:match("^%d+%.%d+%.%d+"), lf.version)
assert(lf.version == core.version)
for _, f in ipairs{"walk", "regex", "glob", "stats", "now"} do
  assert(type(lf[f]) == "function", f)
end
assert(lf.walk == core.walk and lf.regex == core.regex and lf.glob == core.glob)

-- Units.
assert(lf.KiB == 1024 and lf.MiB == 1024 ^ 2 and lf.GiB == 1024 ^ 3 and lf.TiB == 1024 ^ 4)
assert(math.type(lf.KiB) == "integer" and math.type(lf.TiB) == "integer")
assert(lf.minutes == 60 and lf.hours == 3600 and lf.days == 86400 and lf.weeks == 604800)

-- Time: started is fixed, now() moves.
assert(math.type(lf.started) == "integer")
assert(math.abs(lf.started - os.time()) < 60)
assert(math.type(lf.now()) == "integer" and lf.now() >= lf.started)

-- stats(): every counter, as integers.
local s = lf.stats()
for _, k in ipairs{"entries", "opens", "reopens", "closes", "getdents", "stats",
                   "stats_follow", "fd_stats", "unlinks", "stats_ahead", "dirs_ahead",
                   "dirs_ahead_unused", "stats_ring", "tags"} do
  assert(math.type(s[k]) == "integer" and s[k] >= 0, k)
end

-- The metatables carry the module's names.
local w = select(4, lf.walk("."))
assert(tostring(w):match("^luafind%.Walk"))
w:close()
assert(tostring(lf.regex("x")) == "luafind.Regex: x")
assert(tostring(lf.glob("*.c")) == "luafind.Glob: *.c")

-- link(target, path): a hard link (same inode), or fail with the path and errno.
do
  local work = T.workdir()
  T.write(work .. "/a", "data")
  assert(lf.link(work .. "/a", work .. "/b") == true)
  local ino = {}
  for e in lf.walk(work) do ino[e.name] = e.ino end
  assert(ino.a and ino.a == ino.b)
  local ok, msg, err = lf.link(work .. "/a", work .. "/b")
  assert(ok == nil and msg == work .. "/b: File exists" and err == 17, msg)
  -- The message names the path at fault, as ln(1) does: the missing target,
  -- or the missing directory of path.
  ok, msg, err = lf.link(work .. "/none", work .. "/c")
  assert(ok == nil and msg == work .. "/none: No such file or directory" and err == 2, msg)
  ok, msg = lf.link(work .. "/a", work .. "/none/c")
  assert(ok == nil and msg == work .. "/none/c: No such file or directory", msg)
  ok, msg = lf.link(work .. "/a/x", work .. "/c")
  assert(ok == nil and msg == work .. "/a/x: Not a directory", msg)
  ok, msg = lf.link(work, work .. "/c")      -- a directory: EPERM, about the target
  assert(ok == nil and msg == work .. ": Operation not permitted", msg)
  T.raises("string expected, got no value", lf.link, work .. "/a")
end

-- is_root_dir: / in any spelling, never a link to it.
do
  local work = T.workdir()
  for _, p in ipairs{"/", "//", "/tmp/..", "/./"} do assert(lf.is_root_dir(p) == true, p) end
  assert(lf.is_root_dir(work) == false and lf.is_root_dir(work .. "/none") == false)
  T.sh("ln -sf / " .. T.q(work .. "/to-root"))
  assert(lf.is_root_dir(work .. "/to-root") == false, "a link to / is only a link")
  T.raises("string expected", lf.is_root_dir)
end

T.ok("module")

-- Symbolic errno names (issue 21, item 2): both ways, as the C library has
-- them, read-only in a sandbox.
do
  local E = lf.errno
  assert(E.ENOENT == 2 and E.EACCES == 13 and E.ELOOP == 40, "Linux's values")
  assert(E[E.ENOENT] == "ENOENT" and E[E.ENOTDIR] == "ENOTDIR", "names by value")
  assert(E[E.EWOULDBLOCK] == "EAGAIN", "one name per value: the first")
  for e in lf.walk{"/nonexistent-luafind"} do
    local _, _, err = e:stat()
    assert(E[err] == "ENOENT", tostring(err))
  end
  local sb <close> = lf.sandbox{}
  local ran, res = sb:run("local E = require('luafind').errno; return pcall(function() E.ENOENT = 5 end), E.ENOENT")
  assert(ran and res == false, "lf.errno writable in a sandbox")
  T.ok("errno")
end

T.done()
