-- remove_tree.lua: lf.remove_tree, the rm -rf of luafind.  Plain asserts.
--
--   luafind --script remove_tree.lua WORKDIR          the main cases
--   luafind --script remove_tree.lua WORKDIR nodac    failures (run without
--                                                     CAP_DAC_OVERRIDE)
--
-- WORKDIR is removed at the end when every assert held, kept otherwise.

local lf = require "luafind"
local work, mode = arg[1], arg[2]
assert(work, "usage: remove_tree.lua WORKDIR [nodac]")

local function q(s) return "'" .. s:gsub("'", [['\'']]) .. "'" end
local function sh(cmd) assert(os.execute(cmd), cmd) end
local function exists(p) return os.execute("test -e " .. q(p) .. " -o -L " .. q(p)) == true end
local function stats() return lf.stats().stats end

-- 3 directories, 5 files (one of 1000 bytes), a link to a directory
-- outside: 1 + 3 dirs, 6 non-directories.
local function seed(t)
  sh("rm -rf " .. q(t) .. " && mkdir -p " .. q(t .. "/a/b") .. " " .. q(t .. "/c") ..
     " && cd " .. q(t) .. " && head -c 1000 /dev/zero >a/k && printf 12345 >a/b/f5" ..
     " && : >x && : >c/y && : >a/b/z && ln -s " .. q(work .. "/outside") .. " a/out")
end

if mode == "nodac" then
  -- ro is read-only: its two files stay, each reported once; ro and the
  -- root are not tried (they cannot be empty); everything else goes.
  local t = work .. "/perm"
  sh("rm -rf " .. q(t) .. " && mkdir -p " .. q(t .. "/ro") .. " " .. q(t .. "/ok/deep") ..
     " && touch " .. q(t .. "/ro/1") .. " " .. q(t .. "/ro/2") .. " " .. q(t .. "/ok/deep/3") ..
     " && chmod 555 " .. q(t .. "/ro"))
  local n, msg, errno, counts = lf.remove_tree(t)
  assert(n == nil and errno == 13, tostring(msg))
  assert(msg:find(t .. "/ro/", 1, true) and msg:find("Permission denied", 1, true), msg)
  assert(#counts.errors == 2, #counts.errors)
  assert(counts.files == 1 and counts.dirs == 2, counts.files .. " " .. counts.dirs)
  assert(exists(t .. "/ro/1") and exists(t .. "/ro/2") and not exists(t .. "/ok"))
  sh("chmod 755 " .. q(t .. "/ro"))
  sh("rm -rf " .. q(work))
  print("ok")
  return
end

sh("mkdir -p " .. q(work .. "/outside") .. " && touch " .. q(work .. "/outside/precious"))
local t = work .. "/t"

-- A dry run counts and changes nothing; with bytes, the sizes (a stat per
-- non-directory); without, no stat but the root's.
seed(t)
local before = io.popen("find " .. q(t) .. " -printf '%p %s %T@ %C@\n' | sort"):read("a")
lf.remove_tree("/", {dry_run = true})   -- looks up "/" once
local s0 = stats()
local c = assert(lf.remove_tree(t, {dry_run = true}))
assert(c.files == 6 and c.dirs == 4 and c.bytes == nil and c.errors == nil)
assert(stats() - s0 == 1, stats() - s0)
s0 = stats()
c = assert(lf.remove_tree(t, {dry_run = true, bytes = true}))
assert(c.bytes == 1005 + #(work .. "/outside"), c.bytes)
assert(stats() - s0 == 1 + 6, stats() - s0)
assert(io.popen("find " .. q(t) .. " -printf '%p %s %T@ %C@\n' | sort"):read("a") == before)

-- The real thing: all gone, the link's target untouched, no stat.
s0 = stats()
c = assert(lf.remove_tree(t))
assert(c.files == 6 and c.dirs == 4 and c.bytes == nil)
assert(stats() - s0 == 1, stats() - s0)
assert(not exists(t) and exists(work .. "/outside/precious"))

-- A file, a link to a directory (the link goes, not the directory), a
-- trailing slash.
sh("touch " .. q(work .. "/file") .. " && ln -s outside " .. q(work .. "/dirlink"))
c = assert(lf.remove_tree(work .. "/file"))
assert(c.files == 1 and c.dirs == 0 and not exists(work .. "/file"))
c = assert(lf.remove_tree(work .. "/dirlink"))
assert(c.files == 1 and c.dirs == 0 and exists(work .. "/outside/precious"))
seed(t)
c = assert(lf.remove_tree(t .. "/"))
assert(c.dirs == 4 and not exists(t))

-- Refusals: ".", "..", "x/.", "/", a path leading to /; a missing path.
for _, p in ipairs{".", "..", t .. "/.", "a/..", "./", "/tmp/..", "/tmp/../"} do
  local n, msg, errno = lf.remove_tree(p)
  assert(n == nil and errno == 22 and msg:find("refusing", 1, true), p)
end
sh("ln -s / " .. q(work .. "/slash"))
for _, p in ipairs{"/", "//", work .. "/slash/", "/tmp/../."} do
  local n, msg, errno = lf.remove_tree(p, {dry_run = true})
  if p:sub(-1) == "." then
    assert(n == nil and errno == 22, p)
  else
    assert(n == nil and errno == 1 and msg:find("refusing to remove the root directory /", 1, true), p)
  end
end
c = assert(lf.remove_tree(work .. "/slash"))            -- only the link
assert(c.files == 1 and c.dirs == 0 and not exists(work .. "/slash"))
local n, msg, errno, counts = lf.remove_tree(work .. "/missing")
assert(n == nil and errno == 2 and msg:find("No such file", 1, true) and counts.files == 0)

sh("rm -rf " .. q(work))
print("ok")
