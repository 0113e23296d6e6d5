-- big-files: the largest files (--top N), with human-readable sizes; reports only
--
-- One stat per regular file, and the N largest kept as the walk goes.
--
-- SPDX-License-Identifier: MIT

local script = require "luafind.script"

local s = script.new{
  mpi = true,
  options = {
    {"top", arg = "N", kind = "count", default = 20, help = "show the N largest files, 0 all"},
    {"bytes", help = "print sizes in bytes, not as 4.0K, 12M, 1.5G"},
  },
  help = [[
Prints the largest regular files, largest first: size (apparent, as ls -l
shows it), a tab, the path.  Ties are in path order.]],
}

local n = s.options.top
local count, total = 0, 0

-- Whether a is listed before b.  Paths are kept as s:ref makes them (memory
-- linear in the depth), built only to break a tie and to be printed.
local function before(a, b)
  if a.size ~= b.size then return a.size > b.size end
  return script.path_before(a.ref, b.ref)
end
local top = script.top(n, before)

for e in s:walk() do
  if e.type == "f" and s:old_enough(e) then
    local size = e.size or 0
    count, total = count + 1, total + size
    local bar = top:bar()
    if not bar or size >= bar.size then
      top:add{size = size, ref = s:ref(e)}
    end
  end
end
-- Under luafind-mpi each rank kept its own N largest: rank 0 merges them.
local list = s:merged(top, n, before)
count, total = s:sum(count, total)
s:reduce()

for _, f in ipairs(list) do
  local size = s.options.bytes and tostring(f.size) or script.human(f.size)
  s:print(size .. "\t" .. script.path(f.ref))
end
s:note("%d of %d files, %s in all%s", #list, count, s:bytes_text(total), s:trouble())
return s:finish()
