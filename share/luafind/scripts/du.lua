-- du: disk usage per directory, subtree totals, largest first (--top N); reports only
--
-- One walk, each directory visited before and after its contents: a
-- directory's total is complete on its post-order visit and is added to its
-- parent's there.  One stat per entry; memory for the depth and the --top N
-- kept, as the walk's own.
--
-- SPDX-License-Identifier: MIT

local script = require "luafind.script"

local s = script.new{
  older_than = false,
  counted = "directories",
  options = {
    {"top", arg = "N", kind = "count", default = 20, help = "show the N largest directories, 0 all"},
    {"apparent-size", help = "count sizes (as ls -l), not the blocks in use"},
    {"bytes", help = "print sizes in bytes, not as 4.0K, 12M, 1.5G"},
  },
  help = [[
Prints directories by the space their subtree takes, largest first: the
total, a tab, the path, as du does.  By default a file counts for the disk
blocks it uses (st_blocks * 512, as du -B1); with --apparent-size, for its
size (as du --apparent-size -B1).  A file with several hard links counts
once, where it is met first; the directories themselves count too.  A PATH
that is not a directory is listed with its own size.]],
}

local apparent, n = s.options.apparent_size, s.options.top
local seen = {}   -- "dev:ino" of the files with several links already counted

local function usage(e)
  if e.type ~= "d" and (e.nlink or 1) > 1 then
    local id = e.dev .. ":" .. e.ino
    if seen[id] then return 0 end
    seen[id] = true
  end
  if apparent then return e.size or 0 end
  return (e.blocks or 0) * 512
end

-- Largest first, ties in path order.  An item is the directory's path as
-- s:ref gives it (shared nodes: memory linear in the depth, where keeping
-- every path would grow with its square) with its size; only the --top N
-- largest are kept as the walk goes.
local function before(a, b)
  if a.size ~= b.size then return a.size > b.size end
  return script.path_before(a.ref, b.ref)
end
local top = script.top(n, before)

local total = {}  -- total[d]: the running total of the open directory at depth d
local count = 0   -- directories (and PATHs that are files) reported on
local grand = 0   -- the PATHs' totals
local function offer(e, size)
  count = count + 1
  local bar = top:bar()
  if not bar or size >= bar.size then
    top:add{size = size, ref = s:ref(e)}
  end
end
for e in s:walk("both") do
  local d = e.depth
  if e.type == "d" and e.visit == "pre" then
    total[d] = usage(e)
  elseif e.type == "d" then
    offer(e, total[d])
    s.selected = s.selected + 1
    if d > 0 then total[d - 1] = total[d - 1] + total[d] else grand = grand + total[d] end
  elseif d == 0 then
    local size = usage(e)
    offer(e, size)
    grand = grand + size
  else
    total[d - 1] = total[d - 1] + usage(e)
  end
end

for _, dir in ipairs(top:sorted()) do
  local size = s.options.bytes and tostring(dir.size) or script.human(dir.size)
  s:print(size .. "\t" .. script.path(dir.ref))
end
s:note("%d directories, %s in all%s", count, s:bytes_text(grand), s:trouble())
return s:finish()
