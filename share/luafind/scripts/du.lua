-- du: disk usage per directory, subtree totals, largest first (--top N); reports only
--
-- One walk, each directory visited before and after its contents: a
-- directory's total is complete on its post-order visit and is added to its
-- parent's there.  One stat per entry.

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

local total = {}  -- total[d]: the running total of the open directory at depth d
local dirs = {}   -- {path =, size =} of every directory, and of PATHs that are files
local grand = 0   -- the PATHs' totals
for e in s:walk("both") do
  local d = e.depth
  if e.type == "d" and e.visit == "pre" then
    total[d] = usage(e)
  elseif e.type == "d" then
    dirs[#dirs + 1] = {path = e.path, size = total[d]}
    s.selected = s.selected + 1
    if d > 0 then total[d - 1] = total[d - 1] + total[d] else grand = grand + total[d] end
  elseif d == 0 then
    dirs[#dirs + 1] = {path = e.path, size = usage(e)}
    grand = grand + dirs[#dirs].size
  else
    total[d - 1] = total[d - 1] + usage(e)
  end
end

table.sort(dirs, function(a, b)
  if a.size ~= b.size then return a.size > b.size end
  return a.path < b.path
end)
for i, dir in ipairs(dirs) do
  if n > 0 and i > n then break end
  local size = s.options.bytes and tostring(dir.size) or script.human(dir.size)
  s:print(size .. "\t" .. dir.path)
end
s:note("%d directories, %s in all", #dirs, s:bytes_text(grand))
return s:finish()
