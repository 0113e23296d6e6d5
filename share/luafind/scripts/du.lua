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
  mpi = true,
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
once, where it is met first (in luafind-mpi: in the first of its
directories, by PATH, then by path); the directories themselves count too.
A PATH that is not a directory is listed with its own size.]],
}

local apparent, n = s.options.apparent_size, s.options.top
local seen = {}   -- "dev:ino" of the files with several links already counted
local w           -- the walk (luafind-mpi: its object, for claim)

local function usage(e)
  local size = apparent and (e.size or 0) or (e.blocks or 0) * 512
  if e.type ~= "d" and (e.nlink or 1) > 1 then
    local id = e.dev .. ":" .. e.ino
    if s.mpi and e.depth > 0 then
      -- luafind-mpi: other ranks may meet it too.  Of the directories
      -- holding it, the first by PATH, then by path, counts it.
      w:claim(id, size)
      return 0
    end
    if seen[id] then return 0 end
    seen[id] = true
  end
  return size
end

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
-- A directory's total goes to its parent on its post-order visit.  Under
-- luafind-mpi ("how" set) its parent may be on another rank ("top", or a
-- number: the joined visit, which brings the total of what it kept and of
-- what its subdirectories walked elsewhere sent up), and a directory part
-- of whose contents are elsewhere ("partial") keeps its running total.
local it, state, ctl
it, state, ctl, w = s:walk("both")
for e, how in it, state, ctl, w do
  local d = e.depth
  if e.type == "d" and e.visit == "pre" then
    total[d] = usage(e)
  elseif e.type == "d" and how == "partial" then
    w:keep(total[d])
  elseif e.type == "d" then
    local sum = how and how ~= "top" and how or total[d]
    offer(e, sum)
    s.selected = s.selected + 1
    if d == 0 then
      grand = grand + sum
    elseif how then
      w:up(sum)
    else
      total[d - 1] = total[d - 1] + sum
    end
  elseif d == 0 then
    local size = usage(e)
    offer(e, size)
    grand = grand + size
  else
    total[d - 1] = total[d - 1] + usage(e)
  end
end

local list = s:merged(top, n, before)
count, grand = s:sum(count, grand)
s:reduce()
for _, dir in ipairs(list) do
  local size = s.options.bytes and tostring(dir.size) or script.human(dir.size)
  s:print(size .. "\t" .. script.path(dir.ref))
end
s:note("%d directories, %s in all%s", count, s:bytes_text(grand), s:trouble())
return s:finish()
