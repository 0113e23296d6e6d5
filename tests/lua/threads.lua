-- threads.lua: the threads option of luafind.walk and luafind.find (the
-- I/O queue's workers, issue 11): bad values raise naming the option; any
-- number of threads gives the entries, in the order, that one thread gives;
-- the queue's counters are in w:stats() and lf.stats().

local T = dofile((arg[0]:match("^(.*)/") or ".") .. "/helper.lua")
local lf = T.lf
local work = T.workdir()
local root = work .. "/t"

-- 8 directories of 3 subdirectories of 5 files, an empty one, links.
T.sh("mkdir -p " .. T.q(root) .. " && cd " .. T.q(root) ..
  " && for d in 0 1 2 3 4 5 6 7; do for s in a b c; do mkdir -p d$d/$s;" ..
  " for f in 1 2 3 4 5; do echo $d$s$f > d$d/$s/f$f.c; done; done; done" ..
  " && mkdir empty && ln -s d0 link && ln -s nowhere broken")

-- Bad values, for both functions.
for _, v in ipairs{0, -1, 65, 1.5, "2", true} do
  local shown = tostring(v)
  T.raises("luafind.walk: bad option 'threads' (expected an integer from 1 to 64, got " .. shown .. ")",
    lf.walk, {root, threads = v})
  T.raises("luafind.find: bad option 'threads' (expected an integer from 1 to 64, got " .. shown .. ")",
    lf.find, {root, threads = v}, "-true")
end
T.raises("Expected a positive decimal integer argument to -j, but got '0'", lf.find, root, "-j", "0")
T.raises("-j: 65 threads is too many (at most 64)", lf.find, root, "-j65")
for _, v in ipairs{0, "no", {}} do
  T.raises("luafind.walk: bad option 'io_uring' (expected a boolean, got " .. type(v) .. ")",
    lf.walk, {root, threads = 4, io_uring = v})
end
T.ok("threads: bad values")

-- The paths of a walk, in its order, and its counters.
local function walk(opts, prune)
  opts[1] = root
  local it, s, c, w = lf.walk(opts)
  local out = {}
  for e in it, s, c, w do
    out[#out + 1] = e.path .. (e.visit == "post" and " (post)" or "")
    if prune and e.name == prune then w:prune() end
  end
  return out, w:stats()
end

local function check_counters(st, what)
  for _, k in ipairs{"dirs_ahead", "dirs_ahead_unused"} do
    assert(math.type(st[k]) == "integer" and st[k] >= 0, what .. ": " .. k)
  end
  assert(st.dirs_ahead_unused <= st.dirs_ahead and st.dirs_ahead <= st.opens, what .. ": dirs_ahead counters")
end

for _, opts in ipairs{
  {},
  {order = "post"},
  {order = "both"},
  {sort = true},
  {maxdepth = 2},
  {mindepth = 2},
  {follow = "always"},
} do
  local what = {}
  for k, v in pairs(opts) do what[#what + 1] = k .. "=" .. tostring(v) end
  what = table.concat(what, " ")
  local function with(threads)
    local o = {threads = threads}
    for k, v in pairs(opts) do o[k] = v end
    return o
  end
  local one, st1 = walk(with(nil))
  assert(st1.dirs_ahead == 0, what .. ": luafind.walk reads ahead only when asked")
  for _, n in ipairs{1, 2, 8, 64} do
    local got, st = walk(with(n))
    T.same(got, one, ("walk{%s threads = %d}"):format(what, n))
    check_counters(st, what)
  end
end
-- Pruning: the same entries (what was read ahead in vain is only counted).
local pruned = walk({}, "d3")
for _, n in ipairs{1, 4} do
  local got, st = walk({threads = n}, "d3")
  T.same(got, pruned, "walk with d3 pruned, threads = " .. n)
  check_counters(st, "pruned")
  if n == 1 then
    assert(st.dirs_ahead == 0, "threads = 1 reads nothing ahead")
  end
end
-- Without io_uring: the same entries, no stat through a ring.
for _, ring in ipairs{false, true} do
  local got, st = walk({threads = 4, io_uring = ring})
  T.same(got, walk({}), "walk{threads = 4, io_uring = " .. tostring(ring) .. "}")
  check_counters(st, "io_uring")
  assert(math.type(st.stats_ring) == "integer" and st.stats_ring <= st.stats_ahead, "stats_ring counter")
  if not ring then assert(st.stats_ring == 0, "io_uring = false: stats through a ring") end
end
T.ok("threads: luafind.walk gives the same entries in the same order")

-- luafind.find: the same matches with threads, with -j in the expression,
-- with an expression that prunes.
local function find(opts, ...)
  local out = {}
  for e in lf.find(opts, ...) do out[#out + 1] = e.path end
  return out
end
for _, expr in ipairs{{"-type", "f"}, {"-name", "*3*"}, {"-depth", "-type", "d"},
                      {"-name", "b", "-prune", "-o", "-type", "f"}, {"-name", "f2.c", "-quit"},
                      {"-type", "f", "-limit", "3"}, {"-nohidden", "-type", "f"}} do
  local one = find({root, threads = 1}, table.unpack(expr))
  local what = table.concat(expr, " ")
  assert(#one > 0, what .. ": no match")
  T.same(find(root, table.unpack(expr)), one, what .. " (default threads)")
  T.same(find({root, threads = 3}, table.unpack(expr)), one, what .. " (threads = 3)")
  T.same(find(root, "-j", "2", table.unpack(expr)), one, what .. " (-j 2)")
  T.same(find({root, threads = 8, sort = true}, table.unpack(expr)),
    find({root, sort = true}, table.unpack(expr)), what .. " (sorted, threads = 8)")
end
T.ok("threads: luafind.find gives the same matches")

-- lf.stats() sums the counters of every walk.
check_counters(lf.stats(), "lf.stats()")
T.ok("threads: counters")
T.done()
