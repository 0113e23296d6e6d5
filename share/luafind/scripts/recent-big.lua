-- recent-big: big files modified in the last --days (default 7) that git does not ignore; a tutorial
--
-- What is about to bloat a commit: the regular files of at least
-- --min-size (default 1M) modified less than --days days ago (default 7),
-- leaving out what git ignores.  It prints the size, a tab and the path,
-- in path order, and a summary on standard error:
--
--   $ luafind --run recent-big --min-size 10M ~/src/project
--   12M     /home/me/src/project/data/dump.sql
--   recent-big: 1 file, 12582912 bytes (12M)
--
-- The other bundled scripts are built on the framework luafind.script.
-- This one is not: it uses the luafind module alone (luafind-lua(3)), so
-- it can be read from top to bottom as a tutorial of the module.  Copy it
-- to ~/.local/share/luafind/scripts/NAME.lua to make a script of your own.
--
-- The ideas, in the order the code meets them:
--
--  1. A script is a Lua chunk.  `luafind --run recent-big ARGS` calls it
--     with ARGS as `...` (and in the global `arg`, arg[0] being this
--     file); what it returns is the exit status.  Messages go to standard
--     error as "luafind: recent-big: ...", records to standard output.
--
--  2. Lazy stat.  An entry of a walk is a view of the walker's current
--     file, and each field is computed when it is read.  e.name, e.path,
--     e.type and e.depth come from the directory entry: no system call.
--     e.size (or mtime, uid, perm...) costs one stat the first time it is
--     read; the other stat fields of that entry are then free.  So test
--     what is free first: `e.type == "f" and e.size > n` stats regular
--     files only.  `--stats` prints the counters that prove it.
--
--  3. lf.find, the C prefilter.  lf.find(roots, "find expression") walks
--     like lf.walk, but evaluates a find(1) expression in C for every
--     entry and returns only the entries for which it is true: the others
--     never reach Lua.  find's own rules on laziness hold: -type needs no
--     stat, -size makes the one stat, -mtime reuses it, and so does e.size
--     in the loop body.
--
--  4. lf.walk's gitignore option.  lf.walk{root, gitignore = true} skips
--     what git would ignore (ignored files and directories that the index
--     does not track, and every .git), deciding by name, without a stat;
--     an ignored directory is not even read.  In lf.find it is the
--     expression's -gitignore, as for luafind(1).
--
--  5. e:prune().  Called on a directory (on its pre-order visit, the
--     default order), it keeps the walk out of it: nothing below is read.
--
--  6. Errors are entries.  With errors = "yield" (lf.walk's default; lf.find's
--     is "warn": print the message, skip the entry) a directory that
--     cannot be read, or a PATH that does not exist, is returned as an
--     entry with e.visit == "error" and e.error == "path: reason"; the loop
--     decides what to do.  w:had_error() says afterwards whether any error
--     was met, for the exit status.
--
--  7. The exit status, as every bundled script has it: 0 done, 1 some
--     file could not be read (the list may be incomplete), 2 a usage error
--     (with --help, or a message naming the problem).
--
-- SPDX-License-Identifier: MIT

local lf = require "luafind"

local NAME = "recent-big"
local DESCRIPTION = "big files modified in the last --days (default 7) that git does not ignore; a tutorial"

-- The options, in the format of every bundled script's --help (two
-- spaces, the option, its help).
local HELP = [[
usage: luafind --run recent-big [OPTIONS] [PATH...]
]] .. DESCRIPTION .. [[


Lists the regular files of at least --min-size bytes modified less than
--days days ago that git would not ignore (as luafind -gitignore: what
.gitignore files, info/exclude and core.excludesFile exclude and the index
does not track, and every .git), in path order: the size (4.0K, 12M, 1.5G),
a tab, the path.  Symbolic links are not followed.  Nothing is changed.
The script is written on lf.find and lf.walk alone, without luafind.script,
as a tutorial of luafind-lua(3): read it.

Options:
  --min-size SIZE    only files of at least SIZE bytes: 2000000, 500K, 10M, 1G (default 1M)
  --days N           only files modified less than N days ago, N >= 1 (default 7)
  --exclude GLOB     skip (and do not enter) names matching GLOB; repeatable
  --xdev             stay on the filesystem of each PATH
  -0                 print the paths only, each ended by NUL (for xargs -0)
  --stats            print the system call counters on standard error
  --help             print this help

PATHs default to the current directory.  Exit status: 0 done, 1 a file could
not be read, 2 a usage error.  See luafind-lua(3).
]]

---------------------------------------------------------------------------
-- 1. The command line.
--
-- Messages on standard error, as luafind prints them.  A usage error is
-- reported and the chunk returns 2: `return usage(...)` ends the script.

local function warn(fmt, ...)
  io.stdout:flush()   -- keep the order of output and messages on a terminal
  io.stderr:write("luafind: ", NAME, ": ", string.format(fmt, ...), "\n")
end

local function usage(fmt, ...)
  warn(fmt, ...)
  return 2
end

-- "1M" -> 1048576 (powers of 1024, as find's -size k, M, G units); nil if
-- the text is not a size.
local units = {[""] = 1, k = 1024, K = 1024, M = 1024 ^ 2, G = 1024 ^ 3, T = 1024 ^ 4}
local function parse_size(text)
  local digits, unit = text:match("^(%d+)(%a?)$")
  if not digits or not units[unit] or #digits > 15 then return nil end
  return math.tointeger(tonumber(digits) * units[unit])
end

local min_size, days = 1024 * 1024, 7
local excludes, roots = {}, {}      -- lf.glob objects; the PATHs
local nul, stats, only_paths = false, false, false
local find_words = {}               -- global options of the find expression

local args = {...}
local i = 1
while i <= #args do
  local a = args[i]
  if only_paths or a == "-" or a:sub(1, 1) ~= "-" then
    roots[#roots + 1] = a
  elseif a == "--" then
    only_paths = true
  else
    -- --option=value or --option value
    local opt, value = a:match("^(%-%-[^=]+)=(.*)$")
    opt = opt or a
    local takes = opt == "--min-size" or opt == "--days" or opt == "--exclude"
    if value and not takes then
      return usage("option '%s' takes no value", opt)
    elseif takes and not value then
      i = i + 1
      value = args[i]
      if not value then
        return usage("option '%s' needs %s", opt, opt == "--days" and "N" or opt == "--exclude" and "GLOB" or "SIZE")
      end
    end
    if opt == "--help" or opt == "-h" then
      io.stdout:write(HELP)
      return 0
    elseif opt == "--min-size" then
      min_size = parse_size(value)
      if not min_size then return usage("--min-size: bad size '%s' (use e.g. 2000000, 500K, 10M, 1G)", value) end
    elseif opt == "--days" then
      days = value:match("^%d+$") and #value < 10 and tonumber(value)
      if not days or days < 1 then return usage("--days: '%s' is not a number of days >= 1", value) end
    elseif opt == "--exclude" then
      -- lf.glob compiles a shell pattern once; g:match(name) is find -name.
      local ok, glob = pcall(lf.glob, value)
      if not ok then return usage("--exclude: %s", tostring(glob)) end
      excludes[#excludes + 1] = glob
    elseif opt == "--xdev" then
      find_words[#find_words + 1] = "-xdev"
    elseif opt == "-0" then
      nul = true
    elseif opt == "--stats" then
      stats = true
    else
      return usage("unknown option '%s' (see luafind --run %s --help)", a, NAME)
    end
  end
  i = i + 1
end
if #roots == 0 then roots[1] = "." end

-- Every PATH must exist, or it is a usage error, as for the other
-- scripts.  lf.walk with maxdepth = 0 returns the roots only, and costs
-- one stat each: a missing PATH comes back as an error entry (idea 6).
for e in lf.walk{maxdepth = 0, table.unpack(roots)} do
  if e.visit == "error" then return usage("%s", e.error) end
end

---------------------------------------------------------------------------
-- 2. The walk.
--
-- The find expression, as words (no quoting to get wrong):
--
--   -gitignore                  skip what git ignores (idea 4)
--   -type d                     directories pass, so that the loop can
--   -o                          prune the --exclude'd ones (idea 5)
--   -type f -size +Nc -mtime -D regular files big and recent enough
--
-- -size +Nc means "more than N bytes", exactly; find's "-size +1M" would
-- round each size up to whole MiB first (and "-size -1M" matches only
-- empty files), so sizes are given in bytes.  -mtime -D: modified less
-- than D days ago, measured from the start of the run.  A file that fails
-- the test costs one stat and no Lua at all; an ignored one, not even the
-- stat.

local words = {"-gitignore"}
table.move(find_words, 1, #find_words, #words + 1, words)
table.move({"-type", "d", "-o", "-type", "f"}, 1, 5, #words + 1, words)
if min_size > 0 then
  table.move({"-size", "+" .. (min_size - 1) .. "c"}, 1, 2, #words + 1, words)
end
table.move({"-mtime", "-" .. days}, 1, 2, #words + 1, words)

-- Whether a name is --exclude'd.  Free: e.name needs no stat.
local function excluded(name)
  for _, glob in ipairs(excludes) do
    if glob:match(name) then return true end
  end
  return false
end

-- "4.0K", "12M", "1.5G", as du -h prints sizes (powers of 1024, rounded up).
local function human(n)
  if n < 1024 then return tostring(n) end
  local v, u = n / 1024, 1
  while v >= 1024 and u < 6 do v, u = v / 1024, u + 1 end
  local unit = ("KMGTPE"):sub(u, u)
  if v < 10 and math.ceil(v * 10) < 100 then
    return string.format("%.1f%s", math.ceil(v * 10) / 10, unit)
  end
  return string.format("%d%s", math.ceil(v), unit)
end

-- lf.find returns four values for the generic for: the iterator, the
-- walker, nil, and the walker again as the loop's to-be-closed value (a
-- break, a return or an error closes it and its file descriptors).  Keep
-- the walker (w) to ask it about errors afterwards.  The table holds the
-- roots and the walk's options: entries in path order, and errors
-- returned as entries (lf.find's default, "warn", would print them and
-- skip them: the loop below counts and reports them itself).
local root_table = {sort = true, errors = "yield"}
table.move(roots, 1, #roots, 1, root_table)

local count, total, read_errors = 0, 0, 0
local it, state, ctl, w = lf.find(root_table, table.unpack(words))
for e in it, state, ctl, w do
  if e.visit == "error" then
    -- A directory that cannot be read (after it was returned as a
    -- directory: its name came from its parent), a .gitignore that cannot
    -- be read...  Report it and go on: the rest of the tree is still
    -- worth listing.
    warn("%s", e.error)
    read_errors = read_errors + 1
  elseif e.depth > 0 and excluded(e.name) then
    -- A PATH itself is never excluded.  Pruning a file does nothing, so
    -- the type test is only for the reader.
    if e.type == "d" then e:prune() end
  elseif e.type == "f" then
    -- The expression was true for a file: it is big and recent.  e.size
    -- reuses the stat -size made.
    local size = e.size
    count, total = count + 1, total + size
    if nul then
      io.stdout:write(e.path, "\0")
    else
      io.stdout:write(human(size), "\t", e.path, "\n")
    end
  end
  -- The directories that passed "-type d" need nothing more.
end

---------------------------------------------------------------------------
-- 3. The end: a summary on standard error, the counters with --stats, and
-- the exit status.

io.stdout:flush()
local summary = string.format("%s: %d file%s, %d byte%s", NAME, count, count == 1 and "" or "s",
  total, total == 1 and "" or "s")
if total >= 1024 then summary = summary .. " (" .. human(total) .. ")" end
if read_errors > 0 then
  summary = summary .. string.format("; %d read error%s", read_errors, read_errors == 1 and "" or "s")
end
io.stderr:write(summary, "\n")

if stats then
  -- lf.stats() sums the counters of every walk of this run: the PATH
  -- check's stats (one per PATH) and the find's (one per regular file
  -- tested by -size, none for directories or ignored names).
  local c = lf.stats()
  io.stderr:write(string.format("%s: stats: entries=%d opens=%d getdents=%d stats=%d stats_follow=%d unlinks=%d\n",
    NAME, c.entries, c.opens, c.getdents, c.stats, c.stats_follow, c.unlinks))
end

-- w:had_error() is also true for what the expression itself could not do
-- (a file that vanished before -size could stat it: lf.find printed the
-- message already), which the loop never sees as an entry.
if read_errors > 0 or w:had_error() then return 1 end
return 0
