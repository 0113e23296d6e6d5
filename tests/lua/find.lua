-- find.lua: luafind.find, find's expression language as a filter of the
-- walk: the same matches as GNU find for many expressions, the one-string
-- form split as sh would, parse errors raised with the parser's message,
-- laziness (stat counters), the same lazy entries as walk (stale checks,
-- prune), fds released on break, actions (-print, -printf, -exec ... +,
-- -delete, -quit) and the errors option.

local T = dofile((arg[0]:match("^(.*)/") or ".") .. "/helper.lua")
local lf = T.lf
local find = lf.find or lf.core.find
local work = T.workdir()
local root = work .. "/t"
local GNU = "/usr/bin/find"

-- t/ a/{a1.c,a2.h,big.c,sub/deep.txt,sub/s.c,.hidden.c} b/{b1.c,B2.C,empty.c}
--    empty/ file.txt "with space.txt" it's q"uote dollar$x back\slash
--    hard (hard link of file.txt) old.c (2001) new.c (2030-ish: future)
--    link-to-a -> a, link-to-file -> file.txt, broken -> nowhere, -dash/x
T.tree(root, {
  "mkdir -p a/sub b empty ./-dash",
  "echo a1 > a/a1.c && echo a2 > a/a2.h && echo deep > a/sub/deep.txt && echo s > a/sub/s.c",
  "echo h > a/.hidden.c && head -c 5000 /dev/zero > a/big.c",
  "echo b1 > b/b1.c && echo B2 > b/B2.C && : > b/empty.c && echo x > ./-dash/x",
  "echo file > file.txt && echo sp > 'with space.txt' && : > \"it's\" && : > 'q\"uote'",
  ": > 'dollar$x' && : > 'back\\slash' && ln file.txt hard",
  "echo old > old.c && touch -d 2001-02-03T04:05:06 old.c",
  "echo new > new.c && touch -d '+3 days' new.c",
  "chmod 755 a/a1.c && chmod 600 b/b1.c",
  "ln -s a link-to-a && ln -s file.txt link-to-file && ln -s nowhere broken",
})

-- The paths an lf.find loop returns, sorted.
local function collect(roots, ...)
  local out = {}
  for e in find(roots, ...) do out[#out + 1] = e.path end
  table.sort(out)
  return out
end

-- GNU find's output for the same roots and words (its implied -print prints
-- what lf.find returns), sorted.
local function gnu(opts, roots, words)
  if type(roots) == "string" then roots = {roots} end
  local cmd = {GNU}
  for _, o in ipairs(opts) do cmd[#cmd + 1] = o end
  for _, r in ipairs(roots) do cmd[#cmd + 1] = T.q(r) end
  for _, w in ipairs(words) do cmd[#cmd + 1] = T.q(w) end
  local out = T.capture(table.concat(cmd, " ") .. " 2>/dev/null")
  return T.sorted(T.lines(out))
end

-- The number of *.c files.
local NC = #gnu({}, root, {"-name", "*.c"})
assert(NC == 8, NC)

-- Differential: lf.find(root, words...) against find root words.
do
  local ref = root .. "/file.txt"
  local uid = T.capture("id -u"):match("%d+")
  local cases = {
    {},
    {"-name", "*.c"},
    {"-name", "*.c", "-o", "-name", "*.h"},
    {"-iname", "*.c"},
    {"-type", "d"},
    {"-type", "f,l"},
    {"-type", "f", "-size", "+1k"},
    {"-size", "-2", "-type", "f"},
    {"-size", "5000c"},
    {"-empty"},
    {"!", "-empty", "-type", "f"},
    {"-not", "-name", "*.c", "-type", "f"},
    {"(", "-name", "a*", "-o", "-type", "l", ")", "-a", "!", "-empty"},
    {"-path", "*/sub/*"},
    {"-wholename", "*a/a*"},
    {"-regex", ".*/b[^/]*"},
    {"-maxdepth", "1", "-name", "*.c"},
    {"-mindepth", "2", "-type", "f"},
    {"-depth", "-name", "*.txt"},
    {"-newer", ref},
    {"-mtime", "+1000"},
    {"-mtime", "-1"},
    {"-mmin", "+60"},
    {"-perm", "-u+x", "-type", "f"},
    {"-perm", "600"},
    {"-links", "2", "-type", "f"},
    {"-samefile", ref},
    {"-uid", uid, "-name", "*.h"},
    {"-nouser"},
    {"-xtype", "l"},
    {"-lname", "*file*"},
    {"-name", "sub", "-prune", "-o", "-type", "f"},
    {"-name", "x", ",", "-type", "d"},
    {"-false"},
    {"-true", "-maxdepth", "0"},
    {"-name", "*space*"},
    {"-name", "it's", "-o", "-name", "q\"uote", "-o", "-name", "dollar$x"},
  }
  for _, words in ipairs(cases) do
    T.same(collect(root, table.unpack(words)), gnu({}, root, words), "-- " .. table.concat(words, " "))
  end
  -- -H -L -P lead the words; find puts them before the paths.
  for _, o in ipairs{"-P", "-H", "-L"} do
    T.same(collect(root, o, "-type", "d"), gnu({o}, root, {"-type", "d"}), o)
    T.same(collect(root .. "/link-to-a", o, "-name", "*.c"), gnu({o}, root .. "/link-to-a", {"-name", "*.c"}), o)
  end
  T.same(collect(root, "-follow", "-type", "f", "-name", "*.c"), gnu({}, root, {"-follow", "-type", "f", "-name", "*.c"}), "-follow")
  -- Several roots, in a table; roots are never taken for the expression.
  local roots = {root .. "/a", root .. "/b", root .. "/-dash"}
  T.same(collect(roots, "-type", "f"), gnu({}, roots, {"-type", "f"}), "roots")
  -- Numbers are words too.
  T.same(collect(root, "-maxdepth", 1, "-size", -2), gnu({}, root, {"-maxdepth", "1", "-size", "-2"}), "numbers")
  -- Without an expression, every entry, like walk.
  T.same(collect(root), T.sorted(T.collect(root, "path")), "no expression")
  T.ok("find: same matches as GNU find")
end

-- A root that starts with "-" (run where it is relative).
do
  local out = T.run_lua(work, ([[
    local lf = require "luafind"
    local find = lf.find or lf.core.find
    for e in find("-dash", "-type", "f") do print(e.path) end
    for e in find({"-dash", "(", errors = "yield"}, "-name", "x") do print(e.path, e.visit) end
  ]]), nil, "cd " .. T.q(root) .. " &&")
  assert(out == "-dash/x\n-dash/x\tpre\n(\terror\n", out)
  T.ok("find: roots that look like expressions")
end

-- One string: split as sh splits words, without expansions.
do
  local function same(str, words)
    T.same(collect(root, str), collect(root, table.unpack(words)), str)
    T.same(collect(root, str), gnu({}, root, words), str)
  end
  same("-name '*.c' -o -name \"*.h\"", {"-name", "*.c", "-o", "-name", "*.h"})
  same("  -type\tf\n-size  +1k ", {"-type", "f", "-size", "+1k"})
  same("( -name 'a*' -o -type l ) ! -empty", {"(", "-name", "a*", "-o", "-type", "l", ")", "!", "-empty"})
  same("-name 'with space.txt'", {"-name", "with space.txt"})
  same("-name with\\ space.txt", {"-name", "with space.txt"})
  same("-name \"with space.txt\"", {"-name", "with space.txt"})
  same("-name 'it'\\''s'", {"-name", "it's"})
  same("-name it\\'s", {"-name", "it's"})
  same("-name \"it's\"", {"-name", "it's"})
  same("-name \"q\\\"uote\"", {"-name", "q\"uote"})
  same("-name 'dollar$x'", {"-name", "dollar$x"})
  same("-name \"dollar$x\"", {"-name", "dollar$x"})   -- no expansion
  same("-name \"dollar\\$x\"", {"-name", "dollar$x"})
  same("-name 'back\\\\slash'", {"-name", "back\\\\slash"})
  same("-name \"back\\\\\\\\slash\"", {"-name", "back\\\\slash"}) -- "\\" is one backslash
  same("-name \"\\a*\"", {"-name", "\\a*"})  -- \a stays two characters in "..."
  same("-name '' -o -name a\\\nsub", {"-name", "", "-o", "-name", "asub"})
  same("-newer " .. T.q(root .. "/file.txt"), {"-newer", root .. "/file.txt"})
  -- One word without blanks or quotes is not split (nothing to split).
  T.same(collect(root, "-empty"), gnu({}, root, {"-empty"}), "-empty")
  -- Two words or more are never split.
  T.same(collect(root, "-name", "with space.txt"), {root .. "/with space.txt"}, "no split")
  T.raises("luafind.find: unterminated ' quote", find, root, "-name 'x")
  T.raises("luafind.find: unterminated \" quote", find, root, "-name \"x")
  T.raises("luafind.find: backslash at the end", find, root, "-name x\\")
  T.ok("find: one string split as sh would")
end

-- Parse errors: raised with the parser's message, naming the primary.
do
  local base = T.fds()
  local function err(needle, ...)
    local msg = T.raises(needle, find, root, ...)
    assert(msg:sub(1, 14) == "luafind.find: ", msg)
    assert(not msg:find("\n"), "one line: " .. msg)
    return msg
  end
  assert(err("unknown predicate `-nmae'", "-nmae", "*.c") ==
    "luafind.find: unknown predicate `-nmae'; did you mean `-name'?")
  -- Called from Lua code, the message says where, as luaL_error does.
  local ok, msg = pcall(function() local _ = find(root, "-nmae", "*.c") end)
  assert(not ok and tostring(msg):find("find%.lua:%d+: luafind%.find: unknown predicate `%-nmae'"), tostring(msg))
  -- The error is a value: one table per problem, with the word it is about.
  assert(type(msg) == "table" and #msg.errors == 2, tostring(msg))
  assert(msg.errors[1].kind == "unknown-primary" and msg.errors[1].argument == 1, msg.errors[1].kind)
  assert(msg.errors[1].message == "unknown predicate `-nmae'", msg.errors[1].message)
  assert(msg.errors[2].kind == "note" and msg.errors[2].message == "did you mean `-name'?")
  ok, msg = pcall(find, root, "-type", "f", "-perm", "u=rwz")
  assert(not ok and msg.errors[1].kind == "usage" and msg.errors[1].argument == 4 and
    msg.errors[1].primary == "-perm" and msg.errors[1].message == "invalid mode 'u=rwz'", tostring(msg))
  -- The object itself has the fields of its first problem.
  assert(msg.kind == "usage" and msg.argument == 4 and msg.primary == "-perm" and msg.path == nil and
    msg.errno == nil, tostring(msg))
  assert(tostring(msg):find("luafind.find: -perm: invalid mode 'u=rwz'", 1, true), tostring(msg))
  -- A message that names its primary is not given it twice.
  ok, msg = pcall(find, root, "-mtime", "x")
  assert(not ok and msg.primary == "-mtime" and tostring(msg) == "luafind.find: invalid argument `x' to `-mtime'",
    tostring(msg))
  -- A file error: path, errno and its name.
  ok, msg = pcall(function() for _ in find({root .. "/nope", errors = "raise"}, "-true") do end end)
  assert(not ok and msg.kind == "file" and msg.path == root .. "/nope" and msg.errno == lf.errno.ENOENT and
    msg.errname == "ENOENT" and msg.errors[1].errname == "ENOENT", tostring(msg))
  err("missing argument to `-name'", "-name")
  err("missing argument to `-size'", "-type f -size")
  err("invalid -size type `Q'", "-size", "+1Q")
  err("-mtime", "-mtime", "yesterday")
  err("-maxdepth", "-maxdepth", "-1")
  err("-type", "-type", "q")
  assert(err("-perm", "-perm", "u=rwz") == "luafind.find: -perm: invalid mode 'u=rwz'")
  err("I was expecting to find a ')'", "(", "-name", "x")
  err("you have too many ')'", "-name", "x", ")")
  err("paths must precede expression: `x'", "x")
  err("binary operator '-o' with nothing before it", "-o", "-true")
  err("-regextype", "-regextype", "nonesuch", "-regex", "x")
  err("missing argument to `-exec'", "-exec", "echo")
  err("missing argument to `-exec'", "-exec")
  assert(err("No such file or directory", "-newer", root .. "/nonesuch") ==
    "luafind.find: -newer: '" .. root .. "/nonesuch': No such file or directory")
  err("-fprint: '/nonexistent/x': No such file or directory", "-fprint", "/nonexistent/x")
  err("-regex: failed to compile regular expression", "-regex", "\\(")
  err("-regex: invalid regular expression", "-regextype", "pcre2", "-regex", "(")
  err("expected an expression after '!'", "-true", "!")
  err("-delete", "-prune", "-delete")
  -- No luafind options, no -lua: the caller has Lua already.
  err("unknown predicate `--stats'", "--stats")
  assert(err("unknown predicate `-lua'", "-lua", "size > 1") ==
    "luafind.find: unknown predicate `-lua' (-lua is luafind(1)'s; in Lua, test the entry in the loop body)")
  err("unknown predicate `-lua'", "-name '*.c' -lua 'size > 1'")
  -- Bad arguments to find itself.
  T.raises("string or table", find, nil, "-true")
  T.raises("string or table", find, 42)
  T.raises("no root given", find, {}, "-true")
  T.raises("bad argument #3", find, root, "-name", {})
  T.raises("contains a NUL byte", find, root, "-name", "a\0b")
  T.raises("root 1 must be a string", find, {false}, "-true")
  T.raises("bad option 'errors'", find, {root, errors = "ignore"})
  T.raises("bad option 'sort'", find, {root, sort = 1})
  T.raises("option 'maxdepth' is written in the expression here (-maxdepth N)", find, {root, maxdepth = 1})
  T.raises("option 'follow' is written in the expression here (-H, -L or -P)", find, {root, follow = "always"})
  T.raises("unknown option 'colour'", find, {root, colour = true})
  -- Nothing leaks from a failed parse (a -fprint file is closed again).
  for _ = 1, 50 do
    pcall(find, root, "-fprint", work .. "/fprint.out", "-nmae", "x")
  end
  assert(T.fds() == base, "fds after failed parses")
  T.ok("find: parse errors")
end

-- The same lazy entries as walk: fields, methods, stale checks.
do
  local seen, prev = 0, nil
  for e in find(root, "-name", "big.c") do
    seen = seen + 1
    assert(e.size == 5000 and e.type == "f" and e.name == "big.c" and e.depth == 2)
    assert(tostring(e) == root .. "/a/big.c")
    assert(e:snapshot(true).size == 5000)
    local f = assert(e:open())
    assert(#f:read("a") == 5000)
    f:close()
    prev = e
  end
  assert(seen == 1)
  T.raises("entry used after the walk moved on", function() return prev.name end)
  local last
  for e in find(root, "-type", "f") do
    if last then T.raises("entry used after the walk moved on", function() return last.path end) end
    last = e
  end
  -- e:prune() and w:prune() from the loop body.
  local got = {}
  for e in find(root, "-type", "d") do
    got[#got + 1] = e.path
    if e.name == "a" then e:prune() end
  end
  for _, p in ipairs(got) do assert(not p:find("/a/", 1, true), p) end
  local it, s, c, w = find(root, "-type", "d")
  local n = 0
  for e in it, s, c, w do
    n = n + 1
    if e.depth == 0 then w:prune() end
  end
  assert(n == 1)
  assert(tostring(w) == "luafind.Walk (closed)")
  -- sort = true: each directory's entries in strcmp order, as walk gives.
  local sorted = {}
  for e in find({root, sort = true}, "-type", "f") do sorted[#sorted + 1] = e.path end
  local want = {}
  for e in lf.walk{root, sort = true} do
    if e.type == "f" then want[#want + 1] = e.path end
  end
  T.same(sorted, want, "sort = true")
  T.ok("find: entries")
end

-- Laziness: -name and -type make no stat but the root's; -size one per
-- entry; a stat-needing test runs only where the cheap ones passed.
do
  local function stats(...)
    local it, s, c, w = find(root, ...)
    local n = 0
    for _ in it, s, c, w do n = n + 1 end
    return w:stats(), n
  end
  local all = #T.collect(root, "path")
  local st, n = stats("-name", "*.c")
  assert(n == NC, n)
  assert(st.stats == 1 and st.stats_follow == 0, st.stats)
  assert(st.entries == all, st.entries)
  st = stats("-type", "d", "-o", "-name", "*.h")
  assert(st.stats == 1, st.stats)
  st = stats("-size", "+0")
  assert(st.stats == all and st.stats_follow == 0, ("stats=%d entries=%d"):format(st.stats, all))
  -- -O1: "-size +1k -name '*.c'" stats the .c files only (and the root).
  st, n = stats("-size", "+1k", "-name", "*.c")
  assert(n == 1 and st.stats == 1 + NC, st.stats)
  -- Reading e.size of a yielded entry reuses the test's stat.
  local it, s, c, w = find(root, "-name", "*.c", "-size", "-100k")
  for e in it, s, c, w do assert(e.size < 100 * 1024) end
  assert(w:stats().stats == 1 + NC, w:stats().stats)
  -- lf.stats() counts find's walks too.
  local before = lf.stats().stats
  stats("-size", "+0")
  assert(lf.stats().stats == before + all)
  T.ok("find: laziness")
end

-- Closing: break, an error in the body, close(), the end all release fds.
do
  local base = T.fds()
  for _ = 1, 3 do
    for _ in find(root, "-type", "f") do break end
  end
  assert(T.fds() == base, "fds after break")
  for _ = 1, 3 do
    pcall(function()
      for _ in find(root, "-type", "f") do error("boom") end
    end)
  end
  assert(T.fds() == base, "fds after an error")
  local it, s, c, w = find(root, "-name", "*.c")
  it(s, c)
  w:close()
  assert(it(s, c) == nil and w:close() == true)
  assert(T.fds() == base, "fds after close()")
  -- Deep enough to hold several directory fds open when breaking.
  T.sh("mkdir -p " .. T.q(work .. "/deep/1/2/3/4/5/6/7/8/9") .. " && : > " .. T.q(work .. "/deep/1/2/3/4/5/6/7/8/9/leaf"))
  for e in find(work .. "/deep", "-name", "leaf") do
    assert(T.fds() > base, "directories open while walking")
    break
  end
  assert(T.fds() == base, "fds after a deep break")
  -- Dropped without closing: the collector closes it.
  do
    local it2, s2 = find(root, "-type", "f")
    it2(s2)
  end
  collectgarbage()
  collectgarbage()
  assert(T.fds() == base, "fds after collection")
  T.ok("find: closing")
end

-- -quit: the entry it runs on is returned if the expression is true, then
-- the walk ends.
do
  local n = 0
  for e in find(root, "-type", "f", "-quit") do n = n + 1 assert(e.type == "f") end
  assert(n == 1, n)
  n = 0
  for _ in find(root, "-quit", "-false") do n = n + 1 end
  assert(n == 0)
  local it, s, c, w = find(root, "-name", "*.c", "-quit")
  assert(it(s, c).name:match("%.c$"))
  assert(it(s, c) == nil)
  assert(w:stats().entries < #T.collect(root, "path"))
  T.ok("find: -quit")
end

-- -s and -S (bfs): each directory's entries, and the roots, in sorted
-- order, depth-first or breadth-first; the same entries as unsorted.
do
  local function in_order(roots, ...)
    local out = {}
    for e in find(roots, ...) do out[#out + 1] = e.path end
    return out
  end
  local dfs = in_order({root .. "/b", root .. "/a"}, "-s", "-S", "dfs")
  T.same(dfs, {root .. "/a", root .. "/a/.hidden.c", root .. "/a/a1.c", root .. "/a/a2.h", root .. "/a/big.c",
               root .. "/a/sub", root .. "/a/sub/deep.txt", root .. "/a/sub/s.c",
               root .. "/b", root .. "/b/B2.C", root .. "/b/b1.c", root .. "/b/empty.c"}, "-s depth-first")
  local bfs = in_order({root .. "/b", root .. "/a"}, "-S", "bfs", "-s")
  T.same(bfs, {root .. "/a", root .. "/b", root .. "/a/.hidden.c", root .. "/a/a1.c", root .. "/a/a2.h",
               root .. "/a/big.c", root .. "/a/sub", root .. "/b/B2.C", root .. "/b/b1.c", root .. "/b/empty.c",
               root .. "/a/sub/deep.txt", root .. "/a/sub/s.c"}, "-s breadth-first")
  T.same(in_order(root, "-s", "-name", "*.c"), in_order(root, "-s", "-name", "*.c"), "-s is the same each time")
  local unsorted = in_order(root, "-name", "*.c")
  table.sort(unsorted)
  local sorted = in_order(root, "-s", "-S", "bfs", "-name", "*.c")
  table.sort(sorted)
  T.same(sorted, unsorted, "-s: the same entries")
  T.raises("-S bfs visits a directory before its contents", find, root, "-S", "bfs", "-depth")
  T.raises("unrecognized search strategy 'x'", find, root, "-S", "x")
  T.ok("find: -s, -S")
end

-- -exclude-caches (lf.walk's exclude_caches): nothing below a directory
-- whose CACHEDIR.TAG has the signature; the directory itself is returned.
do
  local c = work .. "/caches"
  T.sh("mkdir -p " .. T.q(c .. "/cache/sub") .. " " .. T.q(c .. "/fake") .. " && cd " .. T.q(c) ..
       " && printf 'Signature: 8a477f597d28d172789f06886806bc55' > cache/CACHEDIR.TAG" ..
       " && : > cache/sub/x && printf 'Signature: no' > fake/CACHEDIR.TAG && : > fake/y")
  T.same(collect(c, "-exclude-caches"), {c, c .. "/cache", c .. "/fake", c .. "/fake/CACHEDIR.TAG", c .. "/fake/y"},
         "-exclude-caches")
  local walked = {}
  for e in lf.walk{c, exclude_caches = true} do walked[#walked + 1] = e.path end
  table.sort(walked)
  T.same(walked, collect(c, "-exclude-caches"), "lf.walk{exclude_caches = true}")
  local it, s, ctl, w = find(c, "-exclude-caches", "-name", "x")
  for _ in it, s, ctl, w do end
  assert(w:stats().tags == 2 and w:stats().stats == 1, w:stats().tags)
  T.raises("is written in the expression here (-exclude-caches)", find, {c, exclude_caches = true})
  T.ok("find: -exclude-caches")
end

-- -limit N (bfs): the walk ends the Nth time -limit is evaluated, after that
-- entry (returned if the expression is true for it); no action is needed,
-- the loop is one.
do
  local n = 0
  for e in find(root, "-name", "*.c", "-limit", "3") do n = n + 1 assert(e.name:match("%.c$")) end
  assert(n == 3, n)
  local it, s, c, w = find(root, "-type", "f", "-limit", 2)
  n = 0
  for _ in it, s, c, w do n = n + 1 end
  assert(n == 2 and w:stats().entries < #T.collect(root, "path"), n)
  assert(w:stats().stats == 1, w:stats().stats)
  -- Before a test, it counts every entry it sees; past the last match, all.
  n = 0
  for e in find(root, "-limit", "4", "-type", "f") do n = n + 1 end
  assert(n <= 3, n)
  T.same(collect(root, "-name", "*.c", "-limit", "1000"), collect(root, "-name", "*.c"), "-limit past the end")
  -- Each -limit, and each walk, counts for itself.  The entry it ends on
  -- is returned when -limit is the expression's last word, not when a
  -- test after it was left unevaluated.
  n = 0
  for _ in find(root, "-limit", "5", "-limit", "2") do n = n + 1 end
  assert(n == 2, n)
  n = 0
  for _ in find(root, "-limit", "5", "-limit", "2", "-true") do n = n + 1 end
  assert(n == 1, n)
  local it1, s1 = find(root, "-name", "*.c", "-limit", 2)
  local it2, s2 = find(root, "-name", "*.c", "-limit", 2)
  assert(it1(s1) and it2(s2) and it1(s1) and it2(s2))
  assert(it1(s1) == nil and it2(s2) == nil)
  for _, bad in ipairs{"0", "-1", "abc", "1.5", "", " 3", "99999999999999999999"} do
    T.raises("Expected a positive decimal integer argument to -limit, but got '" .. bad .. "'",
      find, root, "-limit", bad)
  end
  T.raises("missing argument to `-limit'", find, root, "-limit")
  T.raises("the action -limit is not supported within -exclude", find, root, "-exclude", "-limit", "1")
  -- -limit with -print: the lines come from the expression, as in luafind(1).
  local out = T.run_lua(work, ([[
    local lf = require "luafind"
    local find = lf.find or lf.core.find
    local n = 0
    for e in find(%q, "-type f -print -limit 3") do n = n + 1 end
    print(n)
  ]]):format(root))
  local lines = T.lines(out)
  assert(#lines == 4 and lines[4] == "3", out)
  T.ok("find: -limit")
end

-- -hidden, -nohidden (bfs): a name starting with "." but not "." or "..";
-- -nohidden leaves hidden files out and hidden directories unopened,
-- without a stat.  The tree's hidden names are a/.hidden.c and, here,
-- .hid/ with a file in it.
do
  local h = work .. "/hid"
  T.sh("rm -rf " .. T.q(h) .. " && cp -R " .. T.q(root) .. " " .. T.q(h) ..
    " && mkdir " .. T.q(h .. "/.hid") .. " && : > " .. T.q(h .. "/.hid/in.c"))
  T.same(collect(h, "-hidden"), {h .. "/.hid", h .. "/a/.hidden.c"}, "-hidden")
  T.same(collect(h, "-nohidden", "-name", "*.c"),
    gnu({}, h, {"-name", ".*", "-prune", "-o", "-name", "*.c", "-print"}), "-nohidden")
  T.same(collect(h, "-name", "*.c", "-nohidden"), collect(h, "-nohidden", "-name", "*.c"), "-nohidden anywhere")
  T.same(collect(h, "!", "-hidden", "-name", "*.c"),
    gnu({}, h, {"!", "-name", ".*", "-name", "*.c"}), "! -hidden")
  -- "." and ".." are not hidden, as roots or inside a path.
  T.same(collect({h .. "/.", h .. "/a/.."}, "-maxdepth", "0", "-hidden"), {}, ". and ..")
  T.same(collect({h .. "/.hid", h .. "/.hid/"}, "-maxdepth", "0", "-hidden"), {h .. "/.hid", h .. "/.hid/"},
    "hidden roots")
  T.same(collect(h .. "/.hid", "-nohidden"), {}, "a hidden root left out")
  local it, s, c, w = find(h, "-nohidden", "-name", "*.c")
  for _ in it, s, c, w do end
  assert(w:stats().stats == 1, w:stats().stats)
  assert(w:stats().opens == #collect(h, "-nohidden", "-type", "d"), w:stats().opens)
  T.ok("find: -hidden, -nohidden")
end

-- Actions print to standard output (no implied -print), in a child.
do
  local lines = T.lines
  local out = T.run_lua(work, ([[
    local lf = require "luafind"
    local find = lf.find or lf.core.find
    io.write("before\n")
    local n = 0
    for e in find(%q, "-name", "*.c") do n = n + 1 end
    io.write("silent ", n, "\n")
    for e in find(%q, "-name", "*.c", "-print") do end
    io.write("between\n")
    for e in find(%q, "-type f -printf '%%P %%s %%m\n'") do end
    io.write("after\n")
  ]]):format(root, root, root))
  local l = lines(out)
  assert(l[1] == "before" and l[2] == "silent " .. NC, out)
  local b = 0
  for i, x in ipairs(l) do if x == "between" then b = i end end
  assert(b > 0 and l[#l] == "after", out)
  local printed = {}
  for i = 3, b - 1 do printed[#printed + 1] = l[i] end
  T.same(T.sorted(printed), gnu({}, root, {"-name", "*.c"}), "-print")
  local printf = {}
  for i = b + 1, #l - 1 do printf[#printf + 1] = l[i] end
  local want = T.sorted(T.lines(T.capture(GNU .. " " .. T.q(root) .. " -type f -printf '%P %s %m\\n'")))
  T.same(T.sorted(printf), want, "-printf")

  -- -print where written only; flushed when the loop breaks.
  out = T.run_lua(work, ([[
    local lf = require "luafind"
    local find = lf.find or lf.core.find
    local n = 0
    for e in find(%q, "-type", "f", "-print") do n = n + 1 break end
    io.write("n ", n, "\n")
    for e in find(%q, "-name 'a*' -print0 -o -name 'b*.c'") do end
    io.write("\n")
  ]]):format(root, root))
  l = lines(out)
  assert(#l == 3 and l[1]:sub(1, #root) == root and l[2] == "n 1", out)
  local nul = {}
  for p in l[3]:gmatch("([^%z]+)%z") do nul[#nul + 1] = p end
  T.same(T.sorted(nul), gnu({}, root, {"-name", "a*"}), "-print0")

  -- -exec ... + runs its batch at the end, and when the loop breaks.
  out = T.run_lua(work, ([[
    local lf = require "luafind"
    local find = lf.find or lf.core.find
    local n = 0
    for e in find(%q, "-name", "*.c", "-exec", "echo", "batch", "{}", "+") do
      n = n + 1
      if n == 3 then break end
    end
    io.write("n ", n, "\n")
    for e in find(%q, "-name", "*.h", "-exec", "echo", "all", "{}", "+") do end
    for e in find(%q, "-name", "*.txt", "-exec", "test", "-s", "{}", ";") do print("nonempty", e.name) end
  ]]):format(root, root, root))
  l = lines(out)
  local words = {}
  for w in l[1]:gmatch("%S+") do words[#words + 1] = w end
  assert(words[1] == "batch" and #words == 4, out)
  assert(l[2] == "n 3", out)
  assert(l[3] == "all " .. root .. "/a/a2.h", out)
  T.same(T.sorted({l[4], l[5], l[6]}),
    {"nonempty\tdeep.txt", "nonempty\tfile.txt", "nonempty\twith space.txt"}, "-exec ;")
  assert(#l == 6, out)
  -- A pending -execdir batch runs as soon as the walk leaves its directory,
  -- before the next file is printed: the same output as GNU find.
  out = T.run_lua(work, ([[
    local lf = require "luafind"
    local find = lf.find or lf.core.find
    for e in find(%q, "-print", "-execdir", "echo", "{}", "+") do end
  ]]):format(root))
  local want = T.capture(GNU .. " " .. T.q(root) .. " -print -execdir echo {} +")
  assert(out == want, "-execdir +: " .. out .. "\n--- GNU find:\n" .. want)
  -- -quit after -print: one line.
  out = T.run_lua(work, ([[
    local lf = require "luafind"
    local find = lf.find or lf.core.find
    for e in find(%q, "-name '*.c' -print -quit") do end
  ]]):format(root))
  assert(#lines(out) == 1 and out:match("%.c\n$"), out)
  T.ok("find: actions")
end

-- -fprint: files written and closed at the end; walks writing to the same
-- file share it (opened once, not truncated again), and the last to finish
-- closes it.
do
  local out1, out2 = work .. "/fprint1", work .. "/fprint2"
  for _ in find(root, "-name", "*.h", "-fprint", out1, "-fprintf", out2, "%f\n") do end
  assert(T.read(out1) == root .. "/a/a2.h\n" and T.read(out2) == "a2.h\n")
  for _ in find(root, "-name", "*.h", "-fprint", out1) do
    for _ in find(root, "-name", "*.h", "-fprintf", out1, "%f\n") do end
    for _ in find(root, "-name", "*.h", "-print0", "-false") do end -- other actions are fine
  end
  local got = T.read(out1)
  assert(got == root .. "/a/a2.h\na2.h\n" or got == "a2.h\n" .. root .. "/a/a2.h\n", got)
  for _ in find(root, "-name", "*.h", "-fprint", out2) do end -- a new walk truncates it
  assert(T.read(out2) == root .. "/a/a2.h\n")
  T.ok("find: -fprint")
end

-- -delete: the entries it deleted are returned; / is refused.
do
  local d = work .. "/del"
  T.sh("mkdir -p " .. T.q(d .. "/x/y") .. " && cd " .. T.q(d) ..
    " && : > x/1.o && : > x/y/2.o && : > x/keep.c && : > 3.o")
  local gone = collect(d, "-name", "*.o", "-delete")
  T.same(gone, {d .. "/3.o", d .. "/x/1.o", d .. "/x/y/2.o"}, "-delete")
  T.same(collect(d, "-type", "f"), {d .. "/x/keep.c"}, "after -delete")
  local it, s, c, w = find(d, "-depth", "-type", "d", "-empty", "-delete")
  for _ in it, s, c, w do end
  assert(w:stats().unlinks == 1)
  T.same(collect(d), {d, d .. "/x", d .. "/x/keep.c"}, "empty dirs deleted")
  T.raises("luafind.find: refusing to delete '/': it is the root directory /", find, "/", "-maxdepth", "0", "-delete")
  T.raises("luafind.find: refusing to delete '//'", find, {"/tmp", "//"}, "-maxdepth", "0", "-delete")
  -- A link to / is followed under -H and -L, so refused there (-maxdepth 0:
  -- were it not, rmdir of a link only fails); under -P it is only a link.
  local slash = work .. "/slash"
  T.sh("ln -s / " .. T.q(slash))
  for _, mode in ipairs{"-H", "-L"} do
    T.raises("luafind.find: refusing to delete '" .. slash .. "': it is the root directory /",
      find, slash, mode, "-maxdepth", "0", "-delete")
  end
  T.same(collect(slash, "-maxdepth", "0", "-delete"), {slash}, "-P -delete of a link to /")
  T.ok("find: -delete")
end

-- The allow list is read once and raw (issue 20, item 1): a __len that
-- answers differently the second time, or changes the table when read,
-- crashed the process (an 8-byte write out of bounds, strcmp(NULL)).
do
  local sb <close> = lf.sandbox{allow = {"delete"}}
  local ok, msg = sb:run([[
    local lf = require "luafind"
    local c = 0
    local t = setmetatable({}, {__len = function() c = c + 1; return c == 1 and 0 or -2 end})
    for _ in lf.find({"/tmp", allow = t}, "-maxdepth", "0", "-false") do end
    local u, c2 = {"-delete"}, 0
    setmetatable(u, {__len = function(x) c2 = c2 + 1; if c2 > 1 then rawset(x, 1, {}) end; return 1 end})
    for _ in lf.find({"/tmp", allow = u}, "-maxdepth", "0", "-false") do end
    local v = setmetatable({}, {__index = function() return "-delete" end, __len = function() return 1e6 end})
    for _ in lf.find({"/tmp", allow = v}, "-maxdepth", "0", "-false") do end
    return "survived"
  ]])
  assert(ok and msg == "survived", msg)
  local t = setmetatable({"-fprint"}, {__len = function(x) rawset(x, 1, {}); return 1 end})
  T.same(collect({root, allow = t}, "-maxdepth", "0"), {root}, "allow read raw")
  T.raises("bad option 'allow'", find, {root, allow = {{}}}, "-maxdepth", "0")
  T.ok("find: allow read once, raw")
end

-- Finalizers only release (issue 21, item 3): an unclosed find collected
-- with a pending -exec ... + batch runs no command; closing it does.  And
-- the library leaves SIGCHLD to the program: ignored, -exec is an error.
do
  local out = work .. "/gc-exec.out"
  local cmd = "echo ran >> " .. T.q(out)
  local function start()
    local it, s, c, w = find({root, safe = false}, "-type", "f", "-exec", "sh", "-c", cmd, "{}", "+")
    assert(it(s, c))
    return w
  end
  do start() end
  collectgarbage(); collectgarbage()
  assert(not io.open(out), "the collector ran a command")
  start():close()
  assert(T.read(out) == "ran\n", "close did not run the batch")
  os.remove(out)
  for _ in find({root, safe = false}, "-maxdepth", "1", "-type", "f", "-exec", "sh", "-c", cmd, "{}", "+") do break end
  assert(T.read(out) == "ran\n", "a loop's break (__close) did not run the batch")
  local got = T.run_lua(work, ([[
    local lf = require "luafind"
    local find = lf.find or lf.core.find
    for e in find({%q, safe = false}, "-maxdepth", "0", "-exec", "true", ";") do print("matched") end
  ]]):format(root), nil, "env --ignore-signal=CHLD")
  assert(got:find("SIGCHLD is ignored", 1, true) and not got:find("matched"), got)
  T.ok("find: __gc releases, close finishes; SIGCHLD left to the program")
end

-- In a child with the DAC capabilities dropped, lf.find over @dir, made
-- readable but not searchable and holding a file f whose stat then fails:
-- "-name f WORDS -size -1k" (@words: Lua string literals, each followed by
-- a comma), printing each match and w:had_error(), then the same with
-- errors = "raise" under pcall.  Its output, or nil without capsh.
local function nosearch_run(dir, words)
  local nodac = T.nodac()
  if not nodac then return nil end
  T.sh("mkdir -p " .. T.q(dir) .. " && : > " .. T.q(dir .. "/f") .. " && chmod 644 " .. T.q(dir))
  local out = T.run_lua(work, ([[
    local lf = require "luafind"
    local find = lf.find or lf.core.find
    local it, s, c, w = find(%q, "-name", "f", WORDS "-size", "-1k")
    for e in it, s, c, w do print("match", e.path) end
    print("had_error", w:had_error())
    print(pcall(function()
      for e in find({%q, errors = "raise"}, "-name", "f", WORDS "-size", "-1k") do print("match") end
    end))
  ]]):format(dir, dir):gsub("WORDS ", words), "", nodac)
  T.sh("chmod 755 " .. T.q(dir))
  return out
end

-- errors: error entries as walk's option says, but reported and skipped
-- by default ("warn"); the expression's own failures on stderr, or raised
-- with errors = "raise".
do
  local missing = work .. "/missing"
  local got = {}
  for e in find({missing, root .. "/empty", errors = "yield"}, "-type", "d") do
    got[#got + 1] = e.path .. " " .. e.visit .. " " .. tostring(e.error)
  end
  T.same(got, {missing .. " error " .. missing .. ": No such file or directory",
    root .. "/empty pre nil"}, "errors = yield")
  local it, s, c, w = find({missing, root .. "/empty", errors = "skip"}, "-type", "d")
  got = {}
  for e in it, s, c, w do got[#got + 1] = e.path end
  T.same(got, {root .. "/empty"}, "errors = skip")
  assert(w:had_error() == true)
  T.raises(missing .. ": No such file or directory", function()
    for _ in find({missing, errors = "raise"}, "-true") do end
  end)
  -- The default, as "warn": a script counting matches counts none.
  local out = T.run_lua(work, ([[
    local lf = require "luafind"
    local find = lf.find or lf.core.find
    local n = 0
    for e in find({%q, errors = "warn"}) do n = n + 1 end
    print("entries", n)
    local it, s, c, w = find(%q, "-name", "*")
    for e in it, s, c, w do n = n + 1 end
    print("entries", n, w:had_error())
  ]]):format(missing, missing))
  assert(out == ("luafind: '%s': No such file or directory\nentries\t0\n" ..
    "luafind: '%s': No such file or directory\nentries\t0\ttrue\n"):format(missing, missing), out)
  -- -ignore_readdir_race drops vanished files below the roots, not roots.
  local n = 0
  for e in find({missing, errors = "yield"}, "-ignore_readdir_race") do n = n + 1 assert(e.error) end
  assert(n == 1)

  -- A directory that can be read but not searched: its names are listed,
  -- but stat of each fails inside -size.
  local ns = work .. "/nosearch"
  out = nosearch_run(ns, "")
  if not out then
    T.skip("find: stat failures inside tests", "running as root without capsh to drop DAC", "capsh")
  else
    assert(out == ("luafind: '%s/f': Permission denied\nhad_error\ttrue\nfalse\t'%s/f': Permission denied\n")
      :format(ns, ns), out)
  end
  T.ok("find: errors")
end

-- -noerror (bfs): "warn" says nothing about what cannot be reached, the
-- expression's own failures are quiet too (the entry is not returned, and
-- errors = "raise" does not raise for it), and w:had_error() still tells.
-- "yield" still returns error entries: the loop asked for them.
do
  local missing = work .. "/missing"
  local out = T.run_lua(work, ([[
    local lf = require "luafind"
    local find = lf.find or lf.core.find
    local it, s, c, w = find({%q, %q, errors = "warn"}, "-noerror", "-name", "*.c")
    local n = 0
    for e in it, s, c, w do n = n + 1 end
    print("entries", n, w:had_error())
    n = 0
    for e in find({%q, errors = "yield"}, "-noerror") do n = n + 1 assert(e.error) end
    print("yielded", n)
  ]]):format(missing, root, missing))
  assert(out == ("entries\t%d\ttrue\nyielded\t1\n"):format(NC), out)
  -- "! -size -1k" is not taken for true where the stat failed.
  out = nosearch_run(work .. "/nosearch-noerror", '"-noerror", "!", ')
  if not out then
    T.skip("find: -noerror and stat failures", "running as root without capsh to drop DAC", "capsh")
  else
    assert(out == "had_error\ttrue\ntrue\n", out)
  end
  T.ok("find: -noerror")
end

-- A test that fails at run time (a PCRE2 match limit) is an error, never
-- "no match" that "!" turns into true: reported with the path, the walk
-- stops, the entry is not yielded nor deleted, errors = "raise" raises.
do
  local d = work .. "/matchlimit"
  local victim = d .. "/" .. ("a"):rep(40) .. "b"
  T.sh("mkdir -p " .. T.q(d) .. " && : > " .. T.q(victim))
  local pat = "(?:.*/(a+)+c|.*)"
  local out = T.run_lua(work, ([[
    local lf = require "luafind"
    local find = lf.find or lf.core.find
    local it, s, c, w = find(%q, "-regextype", "pcre2", "-type", "f", "!", "-regex", %q, "-delete")
    for e in it, s, c, w do print("yielded", e.path) end
    print("had_error", w:had_error())
  ]]):format(d, pat))
  assert(out == ("luafind: '%s': -regex: match limit exceeded\nhad_error\ttrue\n"):format(victim), out)
  assert(T.read(victim) == "", "a failed -regex let -delete act")
  T.raises("'" .. victim .. "': -regex: match limit exceeded", function()
    for _ in find({d, errors = "raise"}, "-regextype", "pcre2", "!", "-regex", pat) do end
  end)
  T.sh("rm -rf " .. T.q(d))
  T.ok("find: run-time test failures")
end

-- Options before tests warn only with -warn (on stderr, the walk goes on).
do
  local out = T.run_lua(work, ([[
    local lf = require "luafind"
    local find = lf.find or lf.core.find
    local n = 0
    for e in find(%q, "-name", "*.c", "-maxdepth", "1") do n = n + 1 end
    print("quiet", n)
    for e in find(%q, "-warn", "-name", "*.c", "-maxdepth", "1") do n = n + 1 end
    print("warned", n)
  ]]):format(root, root))
  local l = T.lines(out)
  assert(l[1] == "quiet 2" or l[1] == "quiet\t2", out)
  assert(l[2]:find("^luafind: warning: you have specified the global option %-maxdepth after the argument %*%.c"), out)
  assert(l[3] == "warned\t4", out)
  T.ok("find: warnings")
end

-- -exclude (bfs): excluded directories are not entered, even under -depth,
-- and -mindepth does not save what is excluded above it.
do
  local got = collect(root, "-exclude", "-name", "a", "-name", "*.c")
  assert(#got == NC - 4, table.concat(got, " "))
  for _, p in ipairs(got) do assert(not p:find("/a/"), p) end
  local depth = collect(root, "-depth", "-exclude", "-name", "sub", "-name", "*.c")
  assert(#depth == NC - 1, table.concat(depth, " "))
  local min = collect(root, "-mindepth", "2", "-exclude", "-name", "a", "-type", "f")
  for _, p in ipairs(min) do assert(not p:find("/a/"), p) end
  local ok, err = pcall(collect, root, "-exclude", "-print")
  assert(not ok and tostring(err):find("not supported within %-exclude"), tostring(err))
  T.ok("find: -exclude")
end

-- Deep expressions (issue 20): "(" and "!" cost the parser no stack, as
-- they cost GNU find's none; a tree nested over 1000 levels of operators is
-- an error naming the operator that went over, not a stack overflow.
do
  local function words(s)
    local t = {"-maxdepth", "0"}
    for w in s:gmatch("%S+") do t[#t + 1] = w end
    return t
  end
  local function only_root(what, s)
    local got = collect(root, table.unpack(words(s)))
    assert(#got == 1 and got[1] == root, what .. ": " .. table.concat(got, " "))
  end
  only_root("200,001 !", ("! "):rep(200001) .. "-false")
  assert(#collect(root, table.unpack(words(("! "):rep(200000) .. "-false"))) == 0, "200,000 !")
  only_root("30,000 nested (", ("( "):rep(30000) .. "-true" .. (" )"):rep(30000))
  only_root("-a ( nested 30,000 deep", ("-true -a ( "):rep(30000) .. "-true" .. (" )"):rep(30000))
  only_root("a chain of 200,000 -o", ("-false -o "):rep(200000) .. "-true")
  only_root("998 levels", ("-false -o ( -true -a ( "):rep(499) .. "-true" .. (" ) )"):rep(499))
  local deep = words(("-false -o ( -true -a ( "):rep(501) .. "-true" .. (" ) )"):rep(501))
  local ok, e = pcall(collect, root, table.unpack(deep))
  assert(not ok and type(e) == "table", tostring(e))
  local first = e.errors[1]
  assert(first.kind == "usage" and first.message == "expression nested too deeply (over 1000 levels)",
    tostring(e))
  assert(deep[first.argument] == "-o" or deep[first.argument] == "-a", tostring(first.argument))
  T.ok("find: deep expressions")
end

-- -hyperlink in lf.find's words: colored names (-color) are OSC 8 links,
-- absolute with the working directory read when the find starts.
do
  local function enc(s)
    return (s:gsub("[^%w%-%._~/]", function(c) return ("%%%02X"):format(c:byte()) end))
  end
  local host = T.read("/proc/sys/kernel/hostname"):gsub("\n$", "")
  local dir = T.capture("cd " .. T.q(root) .. " && pwd -P"):gsub("\n$", "")
  local out = T.run_lua(work, [[
    local lf = require "luafind"
    local find = lf.find or lf.core.find
    for e in find("a", "-name", "a1.c", "-color", "-hyperlink", "-print") do end
    for e in find("./a/", "-name", "a1.c", "--hyperlink", "-print") do end
    for e in find("a", "-name", "a1.c", "-color", "-print") do end
  ]], "cd " .. T.q(root) .. " && LC_ALL=C LS_COLORS='di=01;34:ex=00'")
  local link = "\27]8;;file://" .. enc(host) .. enc(dir .. "/a/a1.c") .. "\27\\"
  local want = link .. "\27[01;34ma/\27[0ma1.c\27]8;;\27\\\n" .. "./a/a1.c\n" .. "\27[01;34ma/\27[0ma1.c\n"
  assert(out == want, ("-hyperlink: %q, expected %q"):format(out, want))
  T.ok("find: -hyperlink")
end

-- bfs's -since (and -Xsince) is -newerXt; -unique leaves out what was seen
-- under another name (the hard link "hard" of file.txt, and link-to-a when
-- links are followed), stat-ing each entry only with it.
do
  for _, d in ipairs({"2001-02-03", "2001-02-03T04:05:06", "yesterday", "@981173105.5"}) do
    T.same(collect(root, "-since", d), collect(root, "-newermt", d), "-since " .. d)
    T.same(collect(root, "-asince", d), collect(root, "-newerat", d), "-asince " .. d)
  end
  T.raises("-since: I cannot figure out how to interpret 'never' as a date or time", find, root, "-since", "never")
  T.raises("missing argument to `-msince'", find, root, "-msince")
  local all, once = collect(root), collect(root, "-unique")
  assert(#once == #all - 1, #once)
  local n = 0
  for _, p in ipairs(once) do
    if p == root .. "/file.txt" or p == root .. "/hard" then n = n + 1 end
  end
  assert(n == 1, "-unique kept " .. n .. " of two hard links")
  T.same(collect({root, root}, "-unique"), once, "-unique over a root given twice")
  local in_a, in_link = 0, 0
  for _, p in ipairs(collect(root, "-L", "-unique", "-type", "f")) do
    if p:find(root .. "/a/", 1, true) then in_a = in_a + 1 end
    if p:find(root .. "/link-to-a/", 1, true) then in_link = in_link + 1 end
  end
  assert(in_a + in_link == 6 and (in_a == 0 or in_link == 0), in_a .. " " .. in_link)
  local it, s, c, w = find(root, "-unique", "-name", "*.c")
  for _ in it, s, c, w do end
  assert(w:stats().stats == #all, w:stats().stats)
  it, s, c, w = find(root, "-name", "*.c", "-since", "2001-02-04")
  for _ in it, s, c, w do end
  assert(w:stats().stats == 1 + NC, w:stats().stats)
  T.ok("find: -since, -unique")
end

-- bfs's -xattr, -xattrname, -acl and -capable: on a tree with extended
-- attributes (setfattr), an ACL (setfacl) and capabilities (setcap, as
-- root), where the file system holds them; no stat.
do
  local x = work .. "/fsattr"
  T.sh("mkdir -p " .. T.q(x .. "/d") .. " && cd " .. T.q(x) .. " && : > plain && : > tagged && : > acl && : > cap" ..
    " && ln -s tagged link")
  local function try(cmd) return select(2, T.capture("cd " .. T.q(x) .. " && " .. cmd .. " 2>/dev/null")) end
  if not try("command -v setfattr && command -v setfacl") then
    T.skip("find: -xattr, -acl", "setfattr or setfacl is missing", "attr acl")
  elseif not try("setfattr -n user.tag -v 1 tagged && setfattr -n user.dir d") then
    T.skip("find: -xattr", "the file system holds no user.* extended attributes")
  else
    T.same(collect(x, "-xattr"), {x .. "/d", x .. "/tagged"}, "-xattr")
    T.same(collect(x, "-xattrname", "user.tag"), {x .. "/tagged"}, "-xattrname")
    T.same(collect(x, "-L", "-xattrname", "user.tag"), {x .. "/link", x .. "/tagged"},
      "-xattrname, following links")
    T.same(collect(x, "!", "-xattr", "-type", "f"), {x .. "/acl", x .. "/cap", x .. "/plain"}, "! -xattr")
    local it, s, c, w = find(x, "-xattr", "-o", "-xattrname", "user.none")
    for _ in it, s, c, w do end
    assert(w:stats().stats == 1, w:stats().stats)
    if try("setfacl -m u:65534:r acl") then
      T.same(collect(x, "-acl"), {x .. "/acl"}, "-acl")
    else
      T.skip("find: -acl", "the file system holds no POSIX ACLs")
    end
    if try("setcap cap_net_raw+ep cap") then
      T.same(collect(x, "-capable"), {x .. "/cap"}, "-capable")
    else
      T.skip("find: -capable", "capabilities cannot be set here (root, CAP_SETFCAP)")
    end
    T.raises("-xattrname", find, x, "-xattrname")
    T.ok("find: -xattr, -xattrname, -acl, -capable")
  end
end

T.done()
