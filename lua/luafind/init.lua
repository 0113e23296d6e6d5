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

local core = require "luafind.core"
local os_time = os.time

_ENV = nil

local lf = {}

-- The C module's functions, unchanged (they are the hot path).
lf.walk = core.walk     -- walk(root) / walk{root..., option = value...}
lf.regex = core.regex   -- regex(pattern [, flags]): PCRE2 with JIT
lf.glob = core.glob     -- glob(pattern [, flags]): fnmatch, as find -name
lf.stats = core.stats   -- stats(): counters of every walk in this Lua state
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

return lf
