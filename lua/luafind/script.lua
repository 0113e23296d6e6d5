-- luafind.script: the framework of the cleanup scripts.
--
-- Every bundled script (share/luafind/scripts/*.lua) and every user script
-- run by `luafind --run` is built on it: it parses the command line (the
-- common options and the script's own), walks the PATHs without following
-- symbolic links, skips --exclude'd names, shows a progress line on a
-- terminal, prints what is (or would be) removed, deletes only through the
-- delete engine (e:delete() in a walk that visits directories after their
-- contents), and ends with a summary and an exit status: 0 fine, 1 a
-- deletion or a read failed, 2 a usage error.  See luafind-scripts(7).
--
--   -- editor-junk: editor backups and swap files
--   local script = require "luafind.script"
--   local s = script.new{apply = "remove them"}
--   local junk = script.matcher{"*~", ".*.swp"}
--   return s:clean{select = function(e) return e.type ~= "d" and junk(e.name) end}
--
-- The script's name comes from its file name (arg[0]); its one-line
-- description from its first comment line, "-- NAME: description".
--
-- SPDX-License-Identifier: MIT

local lf = require "luafind"
local _G = _G
-- Under luafind-mpi (which preloads it), the walk is the job's, spread over
-- its ranks; nil under luafind.
local mpi = _G.package.loaded["luafind.mpi"]
local error, getmetatable, ipairs, pcall, require, setmetatable, tonumber, tostring, type =
  error, getmetatable, ipairs, pcall, require, setmetatable, tonumber, tostring, type
local io_open, stderr, stdout = io.open, io.stderr, io.stdout
local getenv, os_exit, os_remove, os_rename, os_time =
  os.getenv, os.exit, os.remove, os.rename, os.time
local ceil = math.ceil
local concat, sort, table_unpack = table.concat, table.sort, table.unpack
local format = string.format

_ENV = nil

local M = {}

---------------------------------------------------------------------------
-- Small helpers, public because scripts use them too.

-- The directory part of a path as the walk builds it ("a/b/c" -> "a/b").
function M.dirname(path)
  return path:match("^(.*)/[^/]*$") or "."
end

-- A predicate over names: true if name matches one of the shell patterns
-- (as find -name).  Patterns without wildcards are looked up in a set.
function M.matcher(patterns)
  local exact, globs = {}, {}
  for _, p in ipairs(patterns) do
    if p:find("[*?[\\]") then
      globs[#globs + 1] = lf.glob(p)
    else
      exact[p] = true
    end
  end
  return function(name)
    if exact[name] then return true end
    for i = 1, #globs do
      if globs[i]:match(name) then return true end
    end
    return false
  end
end

-- A size as du -h prints it: 512, 4.0K, 12M, 1.5G (powers of 1024,
-- rounded up).
function M.human(n)
  if n < 1024 then return tostring(n) end
  local units = "KMGTPE"
  local v, i = n / 1024, 1
  while true do
    if v < 10 and ceil(v * 10) < 100 then
      return format("%.1f%s", ceil(v * 10) / 10, units:sub(i, i))
    elseif ceil(v) < 1024 or i == #units then
      return format("%d%s", ceil(v), units:sub(i, i))
    end
    v, i = v / 1024, i + 1
  end
end

-- An age: "30d", "12h", "2w", "90m", "45s" or plain seconds, in seconds;
-- nil if it is not one.
local age_units = {[""] = 1, s = 1, m = 60, h = 3600, d = 86400, w = 604800}
function M.parse_age(text)
  local num, unit = text:match("^(%d+%.?%d*)(%a?)$")
  local k = num and age_units[unit]
  return k and tonumber(num) * k or nil
end

-- A script's one-line description: its first comment line (after a #!
-- line), without a leading "NAME:" when name is given.
function M.describe(path, name)
  local f = io_open(path, "r")
  if not f then return nil end
  local text
  for line in f:lines() do
    if not line:match("^#!") then
      text = line:match("^%-%-+%s*(.-)%s*$")
      break
    end
  end
  f:close()
  if text and name and text:sub(1, #name + 1) == name .. ":" then
    text = text:sub(#name + 2):match("^%s*(.-)$")
  end
  return text ~= "" and text or nil
end

-- Levenshtein distance between two strings of bytes.
local function distance(a, b)
  local row = {}
  for j = 0, #b do row[j] = j end
  for i = 1, #a do
    local diag = row[0]
    row[0] = i
    for j = 1, #b do
      local up = row[j]
      local best = diag + (a:byte(i) == b:byte(j) and 0 or 1)
      if up + 1 < best then best = up + 1 end
      if row[j - 1] + 1 < best then best = row[j - 1] + 1 end
      row[j], diag = best, up
    end
  end
  return row[#b]
end

-- For "did you mean": the string of list nearest to word, at most 3 edits
-- away and fewer than its own length, the first of the nearest; or nil.
function M.nearest(word, list)
  local best, best_d
  for _, s in ipairs(list) do
    local d = distance(word, s)
    if d <= 3 and d < #s and (not best_d or d < best_d) then best, best_d = s, d end
  end
  return best
end

---------------------------------------------------------------------------
-- Ending a script early: script.exit(status [, message]) raises an object
-- that the runner (which sets script.managed) turns into the exit status,
-- the message, if any, going to standard error as "luafind: message".
-- Outside the runner (luafind --script, lua5.4) it exits the process.

local Exit = {}
Exit.__tostring = function(x) return x.message or ("exit status " .. x.status) end

M.managed = false

function M.exit(status, message)
  if not M.managed then
    stdout:flush()
    if message then stderr:write("luafind: ", message, "\n") end
    os_exit(status)
  end
  error(setmetatable({status = status, message = message}, Exit), 0)
end

function M.is_exit(x)
  return getmetatable(x) == Exit
end

---------------------------------------------------------------------------
-- Options.

-- The options every script has.  kind: nil a flag, "count" a number >= 0,
-- "age" an age, "list" a repeatable string.
local common = {
  {"apply", help = "%s (without --apply: a dry run)"},
  {"older-than", arg = "AGE", kind = "age",
   help = "only files not modified for AGE (30d, 12h, 2w, 90m, secs)"},
  {"exclude", arg = "GLOB", kind = "list",
   help = "skip (and do not enter) names matching GLOB; repeatable"},
  {"xdev", help = "stay on the filesystem of each PATH"},
  {"gitignore", help = "skip (and do not enter) what git would ignore"},
  {"0", help = "end output records with NUL instead of newline"},
  {"stats", help = "print the system call counters on standard error"},
  {"help", help = "print this help"},
}

local function key(name)
  return (name:gsub("-", "_"))
end

-- The script's own options, then the common ones it has.
local function option_list(spec)
  local list = {}
  for _, o in ipairs(spec.options or {}) do
    list[#list + 1] = o
  end
  for _, o in ipairs(common) do
    local n = o[1]
    if not ((n == "apply" and not spec.apply) or (n == "older-than" and spec.older_than == false)) then
      list[#list + 1] = o
    end
  end
  return list
end

local function flag(o)
  return (#o[1] == 1 and "-" or "--") .. o[1]
end

local Script = {}
Script.__index = Script

-- A usage error: message, status 2.
function Script:usage_error(fmt, ...)
  M.exit(2, format("%s: " .. fmt, self.name, ...))
end

function Script:help_text()
  local lines = {
    format("usage: %s --run %s %s", mpi and "mpirun -np N luafind-mpi" or "luafind", self.name,
      self.spec.usage or "[OPTIONS] [PATH...]"),
  }
  if self.description then lines[#lines + 1] = self.description end
  if self.spec.help then
    lines[#lines + 1] = ""
    lines[#lines + 1] = self.spec.help:match("^%s*(.-)%s*$")
  end
  lines[#lines + 1] = ""
  lines[#lines + 1] = "Options:"
  for _, o in ipairs(option_list(self.spec)) do
    local left = flag(o) .. (o.arg and " " .. o.arg or "")
    local help = o.help
    if o[1] == "apply" then help = format(help, self.spec.apply) end
    if o.default ~= nil then help = help .. format(" (default %s)", o.default) end
    if o[1] == "older-than" and self.spec.older_than then
      help = help .. format(" (default %s)", self.spec.older_than)
    end
    lines[#lines + 1] = format("  %-18s %s", left, help)
  end
  lines[#lines + 1] = ""
  lines[#lines + 1] = "PATHs default to the current directory.  Exit status: 0 done, 1 a file could"
  lines[#lines + 1] = "not be read or removed, 2 a usage error.  See luafind-scripts(7)."
  return concat(lines, "\n") .. "\n"
end

local function parse_value(self, o, text)
  if o.kind == "count" then
    local n = text:match("^%d+$") and tonumber(text)
    if not n then self:usage_error("%s: '%s' is not a number", flag(o), text) end
    return n
  elseif o.kind == "age" then
    local age = M.parse_age(text)
    if not age then
      self:usage_error("%s: bad age '%s' (use e.g. 30d, 12h, 2w, 90m or seconds)", flag(o), text)
    end
    return age
  end
  return text
end

-- Parse args into self.options (keys with _ for -) and self.roots.
local function parse(self, args)
  local by_flag = {}
  local opts = self.options
  for _, o in ipairs(option_list(self.spec)) do
    by_flag[flag(o)] = o
    if o.kind == "list" then opts[key(o[1])] = {} end
    if o.default ~= nil then opts[key(o[1])] = o.default end
  end
  local i, only_paths = 1, false
  while i <= #args do
    local a = args[i]
    if only_paths or a == "-" or a:sub(1, 1) ~= "-" then
      self.roots[#self.roots + 1] = a
    elseif a == "--" then
      only_paths = true
    else
      local name, value = a:match("^(%-%-[^=]+)=(.*)$")
      local o = by_flag[name or a] or (a == "-h" and by_flag["--help"])
      if not o then
        -- The nearest option by name, dashes aside (so "-x" is not "-0").
        local names = {}
        for _, opt in ipairs(option_list(self.spec)) do names[#names + 1] = opt[1] end
        local near = M.nearest((name or a):match("^%-*(.*)$"), names)
        if near then
          self:warn("unknown option '%s' (see luafind --run %s --help)", a, self.name)
          M.exit(2, format("did you mean '%s'?", (#near == 1 and "-" or "--") .. near))
        end
        self:usage_error("unknown option '%s' (see luafind --run %s --help)", a, self.name)
      elseif not o.arg and value then
        self:usage_error("option '%s' takes no value", name)
      elseif o.arg and not value then
        i = i + 1
        value = args[i]
        if not value then self:usage_error("option '%s' needs %s", a, o.arg) end
      end
      local k = key(o[1])
      if o.kind == "list" then
        opts[k][#opts[k] + 1] = value
      else
        opts[k] = o.arg and parse_value(self, o, value) or true
      end
    end
    i = i + 1
  end
  if #self.roots == 0 then self.roots[1] = "." end
end

---------------------------------------------------------------------------
-- Output: records on standard output, messages and progress on standard
-- error.

-- The progress line is luafind(1)'s status line (luafind.status, which
-- only the executable has: it alone can erase the line when a signal ends
-- the program): the terminal's last row, outside the scrolling region, so
-- output and messages scroll above it.  Shown on a terminal only, about a
-- second after the start, redrawn at most ten times a second.

-- Erase the progress line (the end of the script does it).
function Script:clear_progress()
  if self.bar then
    self.bar:close()
    self.bar = nil
  end
end

-- Show fmt formatted on the progress line, when a drawing is due: the
-- text (and its format arguments) are only formatted then.
function Script:progress(fmt, ...)
  local bar = self.bar
  if not bar or not bar:due() then return end
  bar:draw(format(fmt, ...))
end

-- Called for every entry a walk returns: cheap, the line is asked whether
-- it is due every 64 entries.
function Script:tick(e)
  local n = self.seen + 1
  self.seen = n
  local bar = self.bar
  if n & 63 == 0 and bar and bar:due() then
    bar:draw(format("%s: %d entries, %d %s: ", self.name, n, self.selected, self.spec.counted or "selected"),
      e.path)
  end
end

-- A message on standard error: "luafind: NAME: text".
function Script:warn(fmt, ...)
  stdout:flush()
  stderr:write("luafind: ", self.name, ": ", format(fmt, ...), "\n")
end

-- A failure: reported, counted by kind ("read": an entry the walk could
-- not read, "remove", "link", or "other", the default) for the summary
-- (s:trouble()), and the exit status becomes 1.
function Script:fail(msg, kind)
  self:warn("%s", msg)
  local errors = self.errors
  kind = kind or "other"
  errors[kind] = (errors[kind] or 0) + 1
  self.status = 1
end

-- What went wrong, for the end of a summary line: "" when nothing did,
-- else "; 2 could not be removed, 1 read error" (in a dry run nothing is
-- removed, so only what could not be read or compared can be there).
function Script:trouble()
  local c, parts = self.errors, {}
  local function add(n, fmt, plural)
    if n and n > 0 then parts[#parts + 1] = format(fmt, n, n == 1 and "" or plural) end
  end
  add(c.remove, "%d could not be removed%s", "")
  add(c.link, "%d could not be replaced by a link%s", "")
  add(c.read, "%d read error%s", "s")
  add(c.other, "%d other error%s", "s")
  return #parts > 0 and "; " .. concat(parts, ", ") or ""
end

-- One output record: text, then the note unless -0 (which makes the output
-- of a cleanup a list of paths, for xargs -0).
function Script:print(text, note)
  if self.options["0"] then
    stdout:write(text, "\0")
  elseif note then
    stdout:write(text, " ", note, "\n")
  else
    stdout:write(text, "\n")
  end
end

-- A summary line on standard error (under luafind-mpi, rank 0's: the
-- counters are summed first, s:reduce()).
function Script:note(fmt, ...)
  if mpi and mpi.rank ~= 0 then return end
  stdout:flush()
  stderr:write(self.name, ": ", format(fmt, ...), "\n")
end

---------------------------------------------------------------------------
-- Walking.

-- Whether an entry's name is --exclude'd (roots never are).
function Script:excluded(e)
  local ex = self.excludes
  if #ex == 0 or e.depth == 0 then return false end
  local name = e.name
  for i = 1, #ex do
    if ex[i]:match(name) then return true end
  end
  return false
end

-- Whether e passes --older-than (true without it).  Reads e.mtime: a stat.
function Script:old_enough(e)
  local cutoff = self.cutoff
  if not cutoff then return true end
  local t = e.mtime
  return t ~= nil and t <= cutoff
end

-- With --xdev: whether e is a directory on another filesystem than its
-- root's (the walk does not enter it, and it must not be removed).
function Script:foreign(e)
  return self.options.xdev and e.type == "d" and e.depth > 0 and e.dev ~= self.root_dev[e.root]
end

function Script:walk_options(order)
  local o = {order = order or "pre", follow = "never", xdev = self.options.xdev and true or false,
             gitignore = self.options.gitignore and true or false, errors = "yield"}
  for i, r in ipairs(self.roots) do o[i] = r end
  return o
end

-- s:walk([order]): lf.walk over the PATHs, for use in a generic for, with
-- the framework's rules: links never followed, --exclude'd names skipped
-- (directories not entered), --xdev, --gitignore, errors reported (exit status 1)
-- and not returned, progress shown.  order as in lf.walk (default "pre").
--
-- Under luafind-mpi the walk is the job's: each rank's script gets the
-- entries its rank walks, whole directories at a time, and a second value
-- on the post-order visit of a directory whose parent or part of whose
-- contents are elsewhere (see Script:clean and du.lua for what to do with
-- it, and luafind-mpi(1)); the fourth value returned is then the walk's
-- object with its methods keep, up, hold and claim.
function Script:walk(order)
  if mpi and not self.spec.mpi then
    -- Each rank would see a part of the tree and report on it alone.
    M.exit(2, format("%s: not written for luafind-mpi: its walk does not say how the ranks' parts "
      .. "add up (script.new{mpi = true}, see luafind-scripts(7)); run it with luafind", self.name))
  end
  local it, state, _, w = (mpi and mpi.walk or lf.walk)(self:walk_options(order))
  local names, nodes = {}, {}
  self.dir_names, self.dir_nodes = nil, nil
  -- Under luafind-mpi a rank's walk jumps from directory to directory:
  -- s:ref is e.path.
  if not mpi and (order == nil or order == "pre" or order == "both") then
    self.dir_names, self.dir_nodes = names, nodes
  end
  local function step()
    while true do
      local e, how, tag = it(state)
      if not e then return nil end
      self:tick(e)
      if e.type == "d" and e.visit == "pre" then
        local d = e.depth
        names[d] = d == 0 and e.path or e.name
        nodes[d] = false   -- made by s:ref when asked
      end
      if e.visit == "error" then
        self:fail(e.error, "read")
      elseif self:excluded(e) then
        if e.visit == "pre" and e.type == "d" then e:prune() end
      elseif not self:foreign(e) then
        return e, how, tag
      end
    end
  end
  return step, nil, nil, w
end

-- s:ref(e): a compact reference to the path of e, the entry s:walk just
-- returned, to keep instead of e.path: the directories above it are shared
-- nodes {name, parent node, depth}, so that keeping a reference per entry costs memory
-- linear in the depth, not in the length of each path (on a chain of
-- 100,000 levels, keeping every path would take gigabytes).  script.path
-- makes the string.  Needs a walk in order "pre" or "both" (in other orders
-- it is e.path itself).
function Script:ref(e)
  local names, nodes = self.dir_names, self.dir_nodes
  local d = e.depth
  if not names or d == 0 then return e.path end
  local top = e.type == "d" and e.visit ~= "error" and d or d - 1
  local k = top       -- the deepest directory whose node is made
  while k >= 0 and not nodes[k] do k = k - 1 end
  for i = k + 1, top do
    nodes[i] = {names[i], nodes[i - 1] or nil, i}
  end
  if top == d then return nodes[d] end
  return {e.name, nodes[top], d}
end

-- The path of a reference made by s:ref (a string is returned as it is),
-- built as the walk builds paths ("a" and "b": "a/b"; "/" and "b": "/b").
function M.path(ref)
  if type(ref) == "string" then return ref end
  local names, n = {}, 0
  while ref do
    n = n + 1
    names[n] = ref[1]
    ref = ref[2]
  end
  if n == 1 then return names[1] end
  local parts = {}
  for i = n - 1, 1, -1 do parts[n - i] = names[i] end
  local root = names[n]
  return root .. (root:sub(-1) == "/" and "" or "/") .. concat(parts, "/")
end

-- script.path_before(a, b): whether the path of reference a sorts before
-- b's (script.path(a) < script.path(b)) without making either string: up
-- from the deeper one to the other's depth, then up from both to the
-- directory they share, and only the names below it are compared; on a
-- chain, where du's ties are the neighbours of one path, a few steps where
-- making the paths cost the depth each time (quadratic on a tmpfs, whose
-- directories all have the size 0).
local function below(ref, d)   -- ref's ancestor at depth d, and the one under it
  local child
  while ref[3] > d do child, ref = ref, ref[2] end
  return ref, child
end

function M.path_before(a, b)
  if type(a) == "string" or type(b) == "string" then return M.path(a) < M.path(b) end
  if a == b then return false end
  local d = a[3] < b[3] and a[3] or b[3]
  local x, xc = below(a, d)
  local y, yc = below(b, d)
  if x == y then return xc == nil end   -- a is b's ancestor (or b a's)
  while x[2] ~= y[2] do x, y = x[2], y[2] end
  if not x[2] then return M.path(a) < M.path(b) end   -- two roots
  -- Below the shared directory: "name" ends the path or goes on with "/".
  local xs = x[1] .. ((x ~= a) and "/" or "")
  local ys = y[1] .. ((y ~= b) and "/" or "")
  return xs < ys
end

-- script.top(n, before): keeps the n first of the items added to it in the
-- order before(a, b) (true if a comes first), all of them when n is 0, in
-- a heap: memory for n items, O(log n) per item.
--   local t = script.top(10, function(a, b) return a.size > b.size end)
--   t:add(item) ... for _, item in ipairs(t:sorted()) do ... end
-- t:bar() is the item an item must come before to be kept, nil while any
-- is kept (to skip making items that would go at once).
local Top = {}
Top.__index = Top

function M.top(n, before)
  return setmetatable({n = n, before = before, heap = {}}, Top)
end

-- The heap's root is its last item in the final order (the first to go).
function Top:bar()
  local heap = self.heap
  if self.n == 0 or #heap < self.n then return nil end
  return heap[1]
end

function Top:add(item)
  local heap, before = self.heap, self.before
  if self.n == 0 then
    heap[#heap + 1] = item
    return
  end
  local size = #heap
  if size < self.n then   -- sift up
    local i = size + 1
    while i > 1 do
      local p = i // 2
      if not before(heap[p], item) then break end
      heap[i] = heap[p]
      i = p
    end
    heap[i] = item
    return
  end
  if not before(item, heap[1]) then return end
  local i = 1             -- replace the root, sift down
  while true do
    local c = 2 * i
    if c > size then break end
    if c < size and before(heap[c], heap[c + 1]) then c = c + 1 end
    if not before(item, heap[c]) then break end
    heap[i] = heap[c]
    i = c
  end
  heap[i] = item
end

-- The items kept, in order.
function Top:sorted()
  local list = {}
  for i, item in ipairs(self.heap) do list[i] = item end
  sort(list, self.before)
  return list
end

---------------------------------------------------------------------------
-- Cleaning: s:clean{select = f, empty = f, describe = f, skip = f}.
--
-- One walk, each directory visited before and after its contents.
--   select(e)   called for each entry below the PATHs (not inside a
--               selected directory) on its first visit, before any stat:
--               true selects it, a directory with everything in it.
--   skip(e)     called before select for each such directory: true leaves
--               it alone, not entered and never removed.
--   empty(e)    called on the post-order visit of each directory that is
--               empty or has become empty (its entries were all removed,
--               or would be in a dry run): true removes it.
--   describe(e) a note printed after the path of a selected entry
--               (not with -0), e.g. a link's target.
-- --older-than applies to what select or empty picks (a directory's age is
-- taken before its contents change).  PATHs themselves are never removed;
-- excluded names never are, nor the directories that hold them.  In a dry
-- run nothing changes; the output and the summary are the same.  Returns
-- the exit status.

-- Remove (or count, in a dry run) one entry; true if it is gone.
function Script:remove(e, top, note)
  local size = e.type ~= "d" and (e.size or 0)
  if self.options.apply then
    local ok, msg = e:delete()
    if not ok then
      self:fail(msg, "remove")
      return false
    end
  end
  if size then
    self.files, self.bytes = self.files + 1, self.bytes + size
  else
    self.dirs = self.dirs + 1
  end
  if top then
    self.selected = self.selected + 1
    self:print(e.path, note)
  end
  return true
end

function Script:clean(rules)
  local select, empty, describe, skip = rules.select, rules.empty, rules.describe, rules.skip
  local left = {}        -- left[d]: entries at depth d that stay, in the directory being read
  local old = {}         -- old[d]: --older-than of the directory at depth d, on its pre visit
  local removing         -- depth of the selected directory being emptied
  local removing_note    -- and its describe() note
  local function picked(rule, e)
    return rule ~= nil and rule(e) and self:old_enough(e)
  end
  local function note(e)
    return describe and not self.options["0"] and describe(e) or nil
  end
  local o = self:walk_options("both")
  if mpi then
    o.lost = 1   -- a directory its rank could not open safely: it stays
  end
  local it, state, ctl, w = (mpi and mpi.walk or lf.walk)(o)
  for e, how, tag in it, state, ctl, w do
    self:tick(e)
    local d = e.depth
    local gone = false
    if e.visit == "error" then
      self:fail(e.error, "read")
      left[d + 1] = 1      -- a directory that could not be read is not empty
    elseif e.visit == "pre" and e.type == "d" then
      left[d + 1] = 0
      gone = nil           -- counted on the post visit
      if d == 0 then
        -- a PATH: never selected
      elseif self:excluded(e) or self:foreign(e) or (skip and not removing and skip(e)) then
        e:prune()
        left[d + 1] = 1    -- left alone: not empty
      elseif removing then
        -- inside a selected directory: everything goes
      elseif picked(select, e) then
        removing, removing_note = d, note(e)
        if mpi then w:hold() end   -- all of it goes: walked here, to the end
      elseif empty and self.cutoff then
        old[d] = self:old_enough(e)
      end
    elseif e.type == "d" and how == "partial" then
      -- luafind-mpi: part of its contents are walked elsewhere.  What
      -- stays here and its age wait for the rest (the joined visit).
      w:keep(left[d + 1], old[d] and 1 or 0)
    elseif e.type == "d" then  -- post visit
      local stays = left[d + 1]
      if how ~= nil and how ~= "top" then
        stays, old[d] = how, tag == 1   -- joined: with what stays elsewhere
      end
      if d == 0 or stays > 0 then
        gone = false
      elseif removing then
        gone = self:remove(e, d == removing, d == removing and removing_note or nil)
      elseif empty and (not self.cutoff or old[d]) and empty(e) then
        gone = self:remove(e, true, note(e))
      end
      if removing == d then removing = nil end
      if how ~= nil and d > 0 then
        -- luafind-mpi: its parent is elsewhere, and hears it this way.
        w:up(gone == false and 1 or 0)
        gone = nil
      end
    elseif d > 0 and not self:excluded(e) then
      if removing then
        gone = self:remove(e, false)
      elseif picked(select, e) then
        gone = self:remove(e, true, note(e))
      end
    end
    if gone == false then left[d] = (left[d] or 0) + 1 end
  end
  self:reduce()
  local verb = self.options.apply and "removed" or "would remove"
  local failed = self:trouble()
  local hint = self.options.apply and "" or " (dry run: --apply removes them)"
  self:note("%s %d file%s, %d director%s, %s%s%s", verb,
    self.files, self.files == 1 and "" or "s", self.dirs, self.dirs == 1 and "y" or "ies",
    self:bytes_text(self.bytes), failed, hint)
  return self:finish()
end

-- "1234 bytes (1.3K)".
function Script:bytes_text(n)
  local s = format("%d byte%s", n, n == 1 and "" or "s")
  if n >= 1024 then s = s .. " (" .. M.human(n) .. ")" end
  return s
end

-- Under luafind-mpi, every rank: the counters (files, directories, bytes,
-- selected, seen, errors) become the sums over the ranks and the status
-- the worst, for the summary and s:finish.  Once, before the summary;
-- nothing under luafind.
function Script:reduce()
  if not mpi or self.reduced then return end
  self.reduced = true
  local kinds = {"remove", "link", "read", "other"}
  local v = {self.files, self.dirs, self.bytes, self.selected, self.seen}
  for i, k in ipairs(kinds) do v[5 + i] = self.errors[k] or 0 end
  local sum = mpi.sum(v)
  self.files, self.dirs, self.bytes, self.selected, self.seen = sum[1], sum[2], sum[3], sum[4], sum[5]
  for i, k in ipairs(kinds) do self.errors[k] = sum[5 + i] > 0 and sum[5 + i] or nil end
  self.status = mpi.max(self.status)
end

-- s:sum(a, b, ...): under luafind-mpi the integers summed over the ranks
-- (every rank), under luafind themselves.
function Script:sum(...)
  if not mpi then return ... end
  return table_unpack(mpi.sum{...})
end

-- The items of top (script.top) in order: under luafind-mpi on rank 0 those
-- of every rank's top merged (each item {size =, ref =}: ref a path), an
-- empty list on the others.
function Script:merged(top, n, before)
  local list = top:sorted()
  if not mpi then return list end
  local sizes, paths = {}, {}
  for i, item in ipairs(list) do sizes[i], paths[i] = item.size, M.path(item.ref) end
  sizes, paths = mpi.gather(sizes), mpi.gather(paths)
  if not sizes then return {} end
  local all = M.top(n, before)
  for i = 1, #sizes do all:add{size = sizes[i], ref = paths[i]} end
  return all:sorted()
end

-- End of the script: clear the progress line, print the counters if asked
-- (--stats; under luafind-mpi summed, on rank 0), return the exit status.
function Script:finish()
  self:clear_progress()
  stdout:flush()
  if self.options.stats then
    local c = mpi and mpi.stats() or lf.stats()
    if mpi and mpi.rank ~= 0 then return self.status end
    stderr:write(format("%s: stats: entries=%d opens=%d getdents=%d stats=%d stats_follow=%d unlinks=%d\n",
      self.name, c.entries, c.opens, c.getdents, c.stats, c.stats_follow, c.unlinks))
  end
  return self.status
end

---------------------------------------------------------------------------
-- Hard links, for scripts that replace files (duplicates).

-- What a path is now, not following a final link: {type, dev, ino, size,
-- mtime, uid, gid, perm}, or nil if it cannot be reached.
function M.lstat(path)
  local t
  for e in lf.walk{path, maxdepth = 0, follow = "never", errors = "skip"} do
    t = {type = e.type, dev = e.dev, ino = e.ino, size = e.size, mtime = e.mtime,
         uid = e.uid, gid = e.gid, perm = e.perm}
  end
  return t
end

-- Replace path by a hard link to target, atomically: link target to a
-- temporary name in path's directory, then rename it over path; path is
-- never missing, and never replaced by anything but a complete link.
-- Returns true, or fail and a message.
local tmp_count = 0
function M.replace_by_link(target, path)
  tmp_count = tmp_count + 1
  local tmp = format("%s/.luafind-link-%d-%d.tmp", M.dirname(path), os_time(), tmp_count)
  local linked, err, code = lf.link(target, tmp)
  if not linked then
    return nil, format("%s: cannot link to %s: %s", path, target, code and lf.strerror(code) or err)
  end
  local renamed, msg = os_rename(tmp, path)
  if not renamed then
    os_remove(tmp)
    return nil, format("%s: cannot replace it by a link to %s: %s", path, target, msg)
  end
  return true
end

---------------------------------------------------------------------------
-- script.new(spec): parse the command line (the global arg, as the runner
-- or luafind --script sets it) and return the script object.
--   spec.usage       the synopsis after the name (default "[OPTIONS] [PATH...]")
--   spec.help        a paragraph for --help
--   spec.apply       what --apply does ("remove them"); nil: no --apply
--   spec.older_than  the default of --older-than ("30d"); false: no
--                    --older-than; nil: it is an optional filter
--   spec.options     the script's own options, as {"name", arg = "N",
--                    kind = "count"|"age"|"list"|nil, default =, help =};
--                    their values are in s.options.name (- becomes _)
--   spec.mpi         true: the script's own s:walk loop adds up the parts
--                    of the tree the ranks of luafind-mpi walk (s:reduce,
--                    s:merged, the post-order values); without it
--                    luafind-mpi refuses s:walk (s:clean needs nothing)
--   spec.counted     what s.selected counts, for the progress line
--                    (default "selected": the entries clean() selects; a
--                    report adds to s.selected itself)
-- --help prints the usage and ends the script (status 0); a usage error
-- ends it with status 2.  A PATH that cannot be reached is a usage error,
-- and so is a PATH that is / when --apply is given.
function M.new(spec)
  local arg = _G.arg or {}
  local path = arg[0] or "script"
  local name = path:match("([^/]*)$"):gsub("%.lua$", "")
  local self = setmetatable({
    spec = spec, name = name, path = path, description = M.describe(path, name),
    options = {}, roots = {}, status = 0, mpi = mpi,
    files = 0, dirs = 0, bytes = 0, seen = 0, selected = 0, errors = {},
    root_dev = {},
  }, Script)
  local args = {}
  for i = 1, #arg do args[i] = arg[i] end
  parse(self, args)
  local o = self.options
  if o.help then
    stdout:write(self:help_text())
    M.exit(0)
  end
  local age = o.older_than or (spec.older_than and M.parse_age(spec.older_than))
  self.cutoff = age and lf.started - age
  self.excludes = {}
  for i, g in ipairs(o.exclude or {}) do self.excludes[i] = lf.glob(g) end

  -- The PATHs must exist; with --apply none may be /.
  local check = self:walk_options("pre")
  check.maxdepth = 0
  for e in lf.walk(check) do
    if e.visit == "error" then
      self:usage_error("%s", e.error)
    elseif o.apply and e.type == "d" and lf.is_root_dir(e.path) then
      self:usage_error("refusing to work on '%s': it is the root directory /", e.path)
    elseif o.xdev then
      self.root_dev[e.root] = e.dev
    end
  end

  local has_status, status = pcall(require, "luafind.status")
  local mode = getenv("LUAFIND_PROGRESS")
  if has_status and mode ~= "never" then
    self.bar = status.open(mode == "always" and 0 or 1) or nil
  end
  return self
end

M.Script = Script
return M
