-- walk.lua: luafind.walk and the walker: roots, every option, orders,
-- sorting, depth limits, symbolic links, errors, closing (fds released on
-- break and on error), stale entries, counters, bad options.

local T = dofile((arg[0]:match("^(.*)/") or ".") .. "/helper.lua")
local lf = T.lf
local work = T.workdir()
local root = work .. "/t"

-- t/ a/{a1.c,a2.h,sub/deep.txt} b/b1.c empty/ file.txt
--    link-to-a -> a, link-to-file -> file.txt, broken -> nowhere
T.tree(root, {
  "mkdir -p a/sub b empty",
  "echo a1 > a/a1.c && echo a2 > a/a2.h && echo deep > a/sub/deep.txt",
  "echo b1 > b/b1.c && echo file > file.txt",
  "ln -s a link-to-a && ln -s file.txt link-to-file && ln -s nowhere broken",
})

local function rel(p)
  if p == root then return "." end
  return p:sub(#root + 2)
end

local function listing(opts, fmt)
  local out = {}
  for e in lf.walk(opts) do
    out[#out + 1] = fmt and fmt(e) or rel(e.path)
  end
  return out
end

local all = {".", "a", "a/a1.c", "a/a2.h", "a/sub", "a/sub/deep.txt", "b", "b/b1.c",
             "broken", "empty", "file.txt", "link-to-a", "link-to-file"}

-- walk(root) and walk{root} agree; sort = true gives a fixed order.
T.same(T.sorted(listing(root)), all, "walk(root)")
T.same(T.sorted(listing{root}), all, "walk{root}")
T.same(listing{root, sort = true}, all, "sorted pre-order")

-- Pre-order: a directory before its contents; post: after.
local function check_order(list, dirs_first)
  local pos = {}
  for i, p in ipairs(list) do pos[p] = pos[p] or i end
  for _, p in ipairs(list) do
    local parent = p:match("^(.*)/[^/]*$") or (p ~= "." and ".") or nil
    if parent then
      if dirs_first then
        assert(pos[parent] < pos[p], p .. " before its directory")
      else
        local last
        for i = #list, 1, -1 do if list[i] == parent then last = i break end end
        assert(last > pos[p], p .. " after its directory in post-order")
      end
    end
  end
end
check_order(listing{root, order = "pre"}, true)
local post = listing{root, order = "post", sort = true}
check_order(post, false)
T.same(T.sorted(post), all, "post-order")
assert(post[#post] == ".")

-- visit says which visit it is.
local visits = listing({root, order = "both", sort = true}, function(e)
  return rel(e.path) .. ":" .. e.visit
end)
local want_both = {".:pre", "a:pre", "a/a1.c:pre", "a/a2.h:pre", "a/sub:pre",
  "a/sub/deep.txt:pre", "a/sub:post", "a:post", "b:pre", "b/b1.c:pre", "b:post",
  "broken:pre", "empty:pre", "empty:post", "file.txt:pre", "link-to-a:pre",
  "link-to-file:pre", ".:post"}
T.same(visits, want_both, "order = both")
for _, v in ipairs(listing({root, order = "post"}, function(e) return e.type .. e.visit end)) do
  assert(v == "dpost" or (v:sub(1, 1) ~= "d" and v:sub(2) == "pre"), v)
end

-- Breadth first: depths never decrease.
local depths = listing({root, order = "breadth"}, function(e) return e.depth end)
for i = 2, #depths do assert(depths[i] >= depths[i - 1], "breadth-first order") end
assert(#depths == #all)

-- Depth limits.
T.same(listing{root, maxdepth = 0}, {"."}, "maxdepth 0")
T.same(T.sorted(listing{root, maxdepth = 1}),
  {".", "a", "b", "broken", "empty", "file.txt", "link-to-a", "link-to-file"}, "maxdepth 1")
T.same(T.sorted(listing{root, mindepth = 2}),
  {"a/a1.c", "a/a2.h", "a/sub", "a/sub/deep.txt", "b/b1.c"}, "mindepth 2")
T.same(T.sorted(listing{root, mindepth = 2, maxdepth = 2}),
  {"a/a1.c", "a/a2.h", "a/sub", "b/b1.c"}, "mindepth 2 maxdepth 2")
T.same(listing{root, mindepth = 9}, {}, "mindepth beyond the tree")

-- Several roots, and e.root.
local roots = listing({root .. "/a/sub", root .. "/b", sort = true}, function(e)
  return e.root .. ":" .. rel(e.path)
end)
T.same(roots, {"1:a/sub", "1:a/sub/deep.txt", "2:b", "2:b/b1.c"}, "several roots")

-- Symbolic links: never, roots, always.
local function types(opts)
  local t = {}
  for e in lf.walk(opts) do t[rel(e.path)] = e.type end
  return t
end
local never = types{root}
assert(never["link-to-a"] == "l" and never["link-to-file"] == "l" and never["broken"] == "l")
assert(never["link-to-a/a1.c"] == nil)
local always = types{root, follow = "always"}
assert(always["link-to-a"] == "d" and always["link-to-file"] == "f")
assert(always["broken"] == "l", "a broken link stays a link under follow = always")
assert(always["link-to-a/a1.c"] == "f" and always["link-to-a/sub/deep.txt"] == "f")
local lroot = root .. "/link-to-a"
local r1 = listing{lroot}
T.same(r1, {"link-to-a"}, "a link root is not followed by default")
local r2 = listing({lroot, follow = "roots", sort = true})
T.same(r2, {"link-to-a", "link-to-a/a1.c", "link-to-a/a2.h", "link-to-a/sub",
  "link-to-a/sub/deep.txt"}, "follow = roots")
local roots_types = types{root, follow = "roots"}
assert(roots_types["link-to-a"] == "l", "follow = roots follows the roots only")

-- xdev: /proc is another filesystem than /.
do
  local saw_proc, below_proc = false, false
  for e in lf.walk{"/", xdev = true, maxdepth = 2, errors = "skip"} do
    if e.path == "/proc" then saw_proc = true end
    if e.path:match("^/proc/") then below_proc = true end
  end
  assert(saw_proc and not below_proc, "xdev does not descend into /proc")
  local any = false
  for e in lf.walk{"/proc", maxdepth = 1, errors = "skip"} do
    if e.depth == 1 then any = true break end
  end
  assert(any, "without xdev, /proc is read")
end

-- prune: w:prune() and e:prune() skip a directory's contents.
do
  local it, s, c, w = lf.walk{root, sort = true}
  local seen = {}
  for e in it, s, c, w do
    seen[#seen + 1] = rel(e.path)
    if e.name == "a" then assert(w:prune() == true) end
    if e.name == "b" then assert(e:prune() == true) end
  end
  T.same(seen, {".", "a", "b", "broken", "empty", "file.txt", "link-to-a", "link-to-file"}, "prune")
end

-- Errors are entries: yielded by default, skipped, warned or raised.
do
  local missing = work .. "/missing"
  local got = T.collect({missing, root .. "/empty"})
  assert(#got == 2)
  assert(got[1].visit == "error" and got[1].error == missing .. ": No such file or directory",
    tostring(got[1].error))
  assert(got[1].path == missing and got[1].depth == 0 and got[1].root == 1)
  assert(got[2].visit == "pre" and got[2].error == nil and got[2].root == 2)

  local it, s, c, w = lf.walk{missing}
  local e = it(s, c)
  assert(e and e.error and e.size == nil and e.mtime == nil, "lazy fields of an error entry are nil")
  local ok, msg, errno = e:stat()
  assert(not ok and msg == missing .. ": No such file or directory" and errno == 2)
  assert(w:had_error() == true)
  assert(it(s, c) == nil)
  assert(w:had_error() == true, "had_error after close")
  w:close()

  T.same(listing{missing, root .. "/empty", errors = "skip"}, {"empty"}, "errors = skip")
  local raised = T.raises(missing .. ": No such file or directory", function()
    for _ in lf.walk{missing, errors = "raise"} do end
  end)
  -- An error object: its fields say what the message says.
  local ok2, err2 = pcall(function() for _ in lf.walk{missing, errors = "raise"} do end end)
  assert(not ok2 and type(err2) == "table" and err2.kind == "file" and err2.path == missing and
    err2.errno == lf.errno.ENOENT and err2.errname == "ENOENT" and tostring(err2) == raised, raised)
  assert(lf.strerror(lf.errno.ENOENT) == "No such file or directory")
  assert(not pcall(lf.strerror, -1))
  local out = T.run_lua(work, ([[
    local lf = require "luafind"
    local n = 0
    for e in lf.walk{%q, errors = "warn"} do n = n + 1 end
    print("entries", n)
  ]]):format(missing))
  assert(out:find("luafind: " .. missing .. ": No such file or directory", 1, true), out)
  assert(out:find("entries\t0", 1, true), out)

  local it2, s2, c2, w2 = lf.walk(root)
  for _ in it2, s2, c2, w2 do end
  assert(w2:had_error() == false)
end

-- An unreadable directory: an error entry, and the walk goes on.
do
  local nodac = T.nodac()
  if not nodac then
    T.skip("walk: unreadable directory", "running as root without capsh to drop DAC", "capsh")
  else
    local locked = work .. "/locked"
    T.sh("mkdir -p " .. T.q(locked .. "/inside") .. " " .. T.q(work .. "/open/x") ..
      " && chmod 000 " .. T.q(locked))
    local out = T.run_lua(work, ([[
      local lf = require "luafind"
      for e in lf.walk{%q, %q, sort = true} do
        print(e.path, e.visit, e.error)
      end
    ]]):format(locked, work .. "/open"), "", nodac)
    T.sh("chmod 755 " .. T.q(locked))
    local want = table.concat({
      locked .. "\tpre\tnil",
      locked .. "\terror\t" .. locked .. ": Permission denied",
      work .. "/open\tpre\tnil",
      work .. "/open/x\tpre\tnil",
    }, "\n") .. "\n"
    assert(out == want, out)
  end
end

-- Closing: fds are released on break, on error, on close(), at the end.
do
  local base = T.fds()
  for _ = 1, 3 do
    for e in lf.walk(root) do
      if e.depth == 2 then break end
    end
  end
  assert(T.fds() == base, "break releases the walk's fds")
  for _ = 1, 3 do
    local ok = pcall(function()
      for e in lf.walk(root) do if e.depth == 2 then error("boom") end end
    end)
    assert(not ok)
  end
  assert(T.fds() == base, "an error releases the walk's fds")

  local it, s, c, w = lf.walk(root)
  assert(it(s, c) and it(s, c))
  assert(T.fds() > base, "an open walk holds fds")
  assert(w:close() == true and w:close() == true, "close is idempotent")
  assert(T.fds() == base)
  assert(it(s, c) == nil, "a closed walker yields nothing")
  assert(tostring(w) == "luafind.Walk (closed)")

  -- A walk that is dropped is closed by the collector.
  local function leak() local i, st, ct = lf.walk(root); i(st, ct); i(st, ct) end
  leak()
  collectgarbage()
  collectgarbage()
  assert(T.fds() == base, "__gc closes a dropped walker")

  -- w:next() steps by hand.
  local _, _, _, w2 = lf.walk{root, sort = true}
  assert(w2:next().path == root)
  assert(w2:next().name == "a")
  w2:close()
  assert(w2:next() == nil)
end

-- Stale entries: after the walk ends, and from the previous step.
do
  local saved
  for e in lf.walk(root) do saved = e end
  T.raises("entry used after the walk moved on (use e:snapshot() to keep it)", function()
    return saved.name
  end)
  T.raises("entry used after the walk moved on", function() return saved:snapshot() end)
  T.raises("entry used after the walk moved on", function() return saved.size end)
  assert(tostring(saved) == "luafind.Entry (stale)")

  local prev, raised = nil, 0
  for e in lf.walk(root) do
    if prev then
      local ok, err = pcall(function() return prev.path end)
      assert(not ok and err:find("moved on", 1, true))
      raised = raised + 1
    end
    prev = e
    assert(e.path, "the current entry works")
  end
  assert(raised == #all - 1)

  -- snapshot() keeps an entry's data.
  local snaps = {}
  for e in lf.walk{root, sort = true} do snaps[#snaps + 1] = e:snapshot() end
  assert(#snaps == #all and snaps[2].name == "a" and snaps[2].type == "d")
end

-- Counters: w:stats() per walk, lf.stats() for every walk of this state.
do
  local before = lf.stats()
  local it, s, c, w = lf.walk(root)
  local n = 0
  for e in it, s, c, w do n = n + 1 end
  local st = w:stats()
  assert(st.entries == n and n == #all)
  assert(st.opens == 5, "one open per directory: " .. st.opens)
  assert(st.closes == 5 and st.stats == 1 and st.stats_follow == 0)
  local after = lf.stats()
  assert(after.entries - before.entries == n)
  assert(after.opens - before.opens == 5)
  -- An open walk counts too.
  local it2, s2, c2, w2 = lf.walk(root)
  it2(s2, c2)
  it2(s2, c2)
  assert(lf.stats().opens - after.opens == w2:stats().opens)
  w2:close()
end

-- Bad arguments raise, naming the option.
T.raises("luafind.walk: unknown option 'maxdpeth'", lf.walk, {root, maxdpeth = 1})
T.raises("bad option 'follow' (expected \"never\", \"roots\" or \"always\", got \"yes\")",
  lf.walk, {root, follow = "yes"})
T.raises("bad option 'follow'", lf.walk, {root, follow = true})
T.raises("bad option 'order' (expected \"pre\", \"post\", \"both\" or \"breadth\"",
  lf.walk, {root, order = "in"})
T.raises("bad option 'errors'", lf.walk, {root, errors = "ignore"})
T.raises("bad option 'maxdepth' (expected a non-negative integer, got -1)", lf.walk, {root, maxdepth = -1})
T.raises("bad option 'mindepth'", lf.walk, {root, mindepth = 1.5})
T.raises("bad option 'maxdepth'", lf.walk, {root, maxdepth = "2"})
T.raises("bad option 'sort' (expected a boolean, got number)", lf.walk, {root, sort = 1})
T.raises("bad option 'xdev'", lf.walk, {root, xdev = "yes"})
T.raises("luafind.walk: no root given", lf.walk, {})
T.raises("luafind.walk: no root given", lf.walk, {maxdepth = 1})
T.raises("bad argument #1", lf.walk)
T.raises("bad argument #1", lf.walk, 42)
T.raises("root 2 must be a string, got number", lf.walk, {root, 7})
T.raises("the root contains a NUL byte", lf.walk, "a\0b")
T.raises("unexpected key 0", lf.walk, {[0] = root, root})
T.raises("expected one argument", lf.walk, root, {maxdepth = 1})
do
  local it = lf.walk(root)
  T.raises("luafind.Walk expected", it, {})
end

-- w:cancel(): the loop ends at the next step, every fd closed, from the loop
-- body or from a coroutine; a find walker's pending -exec ... + does not run.
do
  local d = T.workdir() .. "/cancel"
  T.sh("mkdir -p " .. T.q(d .. "/a/b/c") .. " " .. T.q(d .. "/x/y") .. " && touch " .. T.q(d .. "/a/b/c/f"))
  local base = T.fds()
  local it, s, c, w = lf.walk(d)
  local n = 0
  for _ in it, s, c, w do
    n = n + 1
    if n == 3 then assert(w:cancel() == true) end
  end
  assert(n == 3 and w:cancelled() == true and w:had_error() == false, n)
  assert(T.fds() == base, "fds after cancel")
  it, s, c, w = lf.walk(d)
  local co = coroutine.wrap(function() w:cancel() end)
  n = 0
  for _ in it, s, c, w do
    n = n + 1
    if n == 2 then co() end
  end
  assert(n == 2 and w:cancelled(), n)
  local out = d .. ".out" -- not T.workdir() again, which would empty it
  it, s, c, w = lf.find(d, "-exec", "sh", "-c", "echo batch >> " .. T.q(out), "sh", "{}", "+")
  for _ in it, s, c, w do w:cancel() end
  assert(w:cancelled() and not io.open(out), "no batch after cancel")
  assert(T.fds() == base, "fds after cancel (find)")
end

T.ok("walk")

T.done()
