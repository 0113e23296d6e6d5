-- big-files: the largest files (--top N), with human-readable sizes; reports only
--
-- One stat per regular file, and a list of N kept in order as the walk goes.

local script = require "luafind.script"

local s = script.new{
  options = {
    {"top", arg = "N", kind = "count", default = 20, help = "show the N largest files, 0 all"},
    {"bytes", help = "print sizes in bytes, not as 4.0K, 12M, 1.5G"},
  },
  help = [[
Prints the largest regular files, largest first: size (apparent, as ls -l
shows it), a tab, the path.  Ties are in path order.]],
}

local top, n = {}, s.options.top
local count, total = 0, 0

-- Whether a is listed before b.
local function before(a, b)
  if a.size ~= b.size then return a.size > b.size end
  return a.path < b.path
end

for e in s:walk() do
  if e.type == "f" and s:old_enough(e) then
    local size = e.size or 0
    count, total = count + 1, total + size
    local file = {size = size, path = e.path}
    if n == 0 then
      top[#top + 1] = file
    elseif #top < n or before(file, top[n]) then  -- insert it in order, drop the (n+1)th
      local i = #top
      while i > 0 and before(file, top[i]) do
        top[i + 1] = top[i]
        i = i - 1
      end
      top[i + 1] = file
      top[n + 1] = nil
    end
  end
end
if n == 0 then table.sort(top, before) end

for _, f in ipairs(top) do
  local size = s.options.bytes and tostring(f.size) or script.human(f.size)
  s:print(size .. "\t" .. f.path)
end
s:note("%d of %d files, %s in all", #top, count, s:bytes_text(total))
return s:finish()
