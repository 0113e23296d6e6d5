-- luafind: find(1) with Lua inside.
--
-- The pure-Lua layer over the C module luafind.core: it re-exports the
-- walker, regex and glob constructors and adds units and time helpers, so
-- `require "luafind"` gives the same API in the luafind executable (where
-- luafind.core is preloaded) and in stock lua5.4 (where it is
-- luafind/core.so on package.cpath).  See luafind-lua(3).
--
--   local lf = require "luafind"
--   for e in lf.walk{".", maxdepth = 4} do
--     if e.type == "f" and e.size > 10 * lf.MiB then print(e.path) end
--   end
--
-- SPDX-License-Identifier: MIT

local core = require "luafind.core"
local os_time = os.time

_ENV = nil

local lf = {}

-- The C module's functions, unchanged (they are the hot path).
lf.walk = core.walk     -- walk(root) / walk{root..., option = value...}
lf.find = core.find     -- find(root_or_roots, word... | "words"): find's expression as a filter
lf.regex = core.regex   -- regex(pattern [, flags]): PCRE2 with JIT
lf.glob = core.glob     -- glob(pattern [, flags]): fnmatch, as find -name
lf.stats = core.stats   -- stats(): counters of every walk in this Lua state
lf.json = core.json     -- json(value | entry [, fields]): JSON text [, msg, errno of a null], names lossless
lf.link = core.link     -- link(target, path): a hard link; true, or nil, msg, errno
lf.sandbox = core.sandbox -- sandbox{max_memory =, max_steps =, allow =}: sb:run(code, ...)
lf.is_root_dir = core.is_root_dir -- is_root_dir(path): whether path names / ("//", "/tmp/..")
lf.errno = core.errno   -- errno values by name (lf.errno.ENOENT) and names by value (lf.errno[2])
lf.strerror = core.strerror -- strerror(errno): the system's message ("No such file or directory")
lf.version = core.version
lf.core = core

-- Sizes in bytes.
lf.KiB = 1024
lf.MiB = 1024 * 1024
lf.GiB = 1024 * 1024 * 1024
lf.TiB = 1024 * 1024 * 1024 * 1024

-- Durations in seconds, to compare with e.mtime and friends.
lf.minutes = 60
lf.hours = 60 * 60
lf.days = 24 * 60 * 60
lf.weeks = 7 * 24 * 60 * 60

-- The time the module was loaded, in seconds since the epoch: a fixed
-- reference for a whole run, as find's -mtime uses its start time.
lf.started = os_time()

-- The current time, in seconds since the epoch.
function lf.now()
  return os_time()
end

-- remove_tree(path [, {xdev =, dry_run =, bytes =}]): the rm -rf of luafind.
--
-- Removes path and everything below it on the delete engine: one walk
-- never following a symbolic link (not even path itself, unless written
-- with a trailing /), each file unlinked relative to its directory's fd
-- and each directory removed after its contents.  A failure (EACCES, EPERM...) is recorded and the walk goes
-- on; the directories above a file that stayed are left alone rather than
-- failing with ENOTEMPTY, so each problem is reported once.  Refuses / (by
-- dev/ino, whatever path leads there) and paths ending in . or .. as rm
-- does.  With xdev, nothing on another filesystem than path's is touched;
-- with dry_run, nothing is removed but everything is counted.
--
-- Returns counts {files =, dirs =, bytes =} ("files": every entry that is
-- not a directory), or fail, the first message, its errno and the counts,
-- with counts.errors listing every message.  bytes (the sizes of the files)
-- only with bytes = true: it costs one stat per file, which deleting does
-- not need.
local EPERM, EINVAL = core.errno.EPERM, core.errno.EINVAL

function lf.remove_tree(path, opts)
  opts = opts or {}
  local base = path:match("([^/]*)/*$")
  if base == "." or base == ".." then
    return nil, path .. ": refusing to remove '.' or '..'", EINVAL
  end
  local counts = {files = 0, dirs = 0, bytes = opts.bytes and 0 or nil}
  local errors, first_errno = {}, nil
  local left = {}     -- left[d]: entries at depth d that stay
  local root_dev
  local function fail(d, msg, errno)
    errors[#errors + 1] = msg
    first_errno = first_errno or errno
    left[d] = (left[d] or 0) + 1
  end
  local it, state, ctl, w = core.walk{path, order = "both", follow = "never",
    xdev = opts.xdev and true or false, errors = "yield"}
  for e in it, state, ctl, w do
    local d = e.depth
    if e.visit == "error" then
      local _, msg, errno = e:stat()
      fail(d + 1, msg, errno)   -- what could not be read stays, and so do its parents
    elseif d == 0 and e.visit ~= "post" and e.type == "d" and core.is_root_dir(e.path) then
      w:close()
      return nil, path .. ": refusing to remove the root directory /", EPERM
    elseif e.visit == "pre" and e.type == "d" then
      left[d + 1] = 0
      if d == 0 and opts.xdev then root_dev = e.dev end
    elseif e.type == "d" and (left[d + 1] > 0 or (opts.xdev and e.dev ~= root_dev)) then
      left[d] = (left[d] or 0) + 1
    else
      local size = counts.bytes and e.type ~= "d" and e.size
      local ok, msg, errno = true, nil, nil
      if not opts.dry_run then
        ok, msg, errno = e:delete()
      end
      if not ok then
        fail(d, msg, errno)
      elseif e.type == "d" then
        counts.dirs = counts.dirs + 1
      else
        counts.files = counts.files + 1
        if size then counts.bytes = counts.bytes + size end
      end
    end
  end
  if #errors > 0 then
    counts.errors = errors
    return nil, errors[1], first_errno, counts
  end
  return counts
end

return lf
