-- duplicates: groups of identical files; reports, or with --apply replaces duplicates by hard links
--
-- Three sieves, each only over what the one before left: the size (one
-- stat per file, in the walk), a hash of the first 4 KiB, then a full
-- comparison.  Paths to the same inode are one file, never a duplicate.
--
-- SPDX-License-Identifier: MIT

local script = require "luafind.script"

local s = script.new{
  apply = "replace duplicates by hard links",
  help = [[
Prints each group of regular files with identical contents, one path a line,
groups separated by an empty line (an empty record with -0), the groups that
waste the most space first.  Empty files are left out.  Paths that are
already hard links to the same file are listed together and count as one.

With --apply, every other file of a group becomes a hard link to the first
one, atomically (a link made under a temporary name replaces it by rename),
only if both are on the same filesystem, have the same owner, group and
permissions, and have not changed since they were compared.]],
}

local PREFIX, BLOCK = 4096, 65536

-- FNV-1a, 64 bits, over 8-byte words (Lua integers wrap around).  Not a
-- cryptographic hash: it only sorts candidates, the full comparison decides.
-- Eight words per string.unpack: the calls are what costs.
local P, unpack = 0x100000001b3, string.unpack
local function fnv1a(data)
  local h, n, i = 0xcbf29ce484222325, #data, 1
  while i + 63 <= n do
    local w1, w2, w3, w4, w5, w6, w7, w8 = unpack("<i8i8i8i8i8i8i8i8", data, i)
    h = (h ~ w1) * P; h = (h ~ w2) * P; h = (h ~ w3) * P; h = (h ~ w4) * P
    h = (h ~ w5) * P; h = (h ~ w6) * P; h = (h ~ w7) * P; h = (h ~ w8) * P
    i = i + 64
  end
  while i + 7 <= n do
    h = (h ~ unpack("<i8", data, i)) * P
    i = i + 8
  end
  for j = i, n do
    h = (h ~ data:byte(j)) * P
  end
  return h
end

local function prefix_hash(file)
  local f, err = io.open(script.path(file.paths[1]), "rb")
  if not f then return nil, err end
  local data = f:read(PREFIX) or ""
  f:close()
  return fnv1a(data)
end

local function same_content(a, b)
  local fa, err = io.open(script.path(a.paths[1]), "rb")
  if not fa then return nil, err end
  local fb, err_b = io.open(script.path(b.paths[1]), "rb")
  if not fb then
    fa:close()
    return nil, err_b
  end
  local same, x
  repeat
    x = fa:read(BLOCK)
    same = x == fb:read(BLOCK)
  until not same or x == nil
  fa:close()
  fb:close()
  return same
end

-- 1. The walk: regular files by size, one record per inode.  Paths are
-- kept as s:ref makes them (memory linear in the depth, not in the length
-- of every path), made strings only for the files of a group.
local inodes, by_size = {}, {}
for e in s:walk() do
  if e.type == "f" and (e.size or 0) > 0 and s:old_enough(e) then
    local id = e.dev .. ":" .. e.ino
    local file = inodes[id]
    if file then
      file.paths[#file.paths + 1] = s:ref(e)
    else
      file = {size = e.size, dev = e.dev, ino = e.ino, mtime = e.mtime, paths = {s:ref(e)}}
      inodes[id] = file
      local same = by_size[e.size] or {}
      same[#same + 1] = file
      by_size[e.size] = same
    end
  end
end

-- 2. Files of the same size, by the hash of their first 4 KiB; 3. files of
-- the same hash, by contents (each compared with the first of each class).
local groups, done, todo = {}, 0, 0
for _, same in pairs(by_size) do
  if #same > 1 then todo = todo + #same end
end

local function classify(candidates)
  local classes = {}
  for _, f in ipairs(candidates) do
    local home
    for _, c in ipairs(classes) do
      local same, err = same_content(c[1], f)
      if err then s:fail(err, "read") end
      if same then home = c break end
    end
    if home then home[#home + 1] = f else classes[#classes + 1] = {f} end
  end
  for _, c in ipairs(classes) do
    if #c > 1 then groups[#groups + 1] = c end
  end
end

for _, same in pairs(by_size) do
  if #same > 1 then
    local by_hash = {}
    for _, f in ipairs(same) do
      done = done + 1
      s:progress("%s: comparing, %d of %d files", s.name, done, todo)
      local h, err = prefix_hash(f)
      if h then
        by_hash[h] = by_hash[h] or {}
        table.insert(by_hash[h], f)
      else
        s:fail(err, "read")
      end
    end
    for _, candidates in pairs(by_hash) do
      if #candidates > 1 then classify(candidates) end
    end
  end
end

-- Order: paths within a file, files by their first path (the first file is
-- the one kept), groups by the space they waste, then by first path.
for _, g in ipairs(groups) do
  for _, f in ipairs(g) do
    for i, p in ipairs(f.paths) do f.paths[i] = script.path(p) end
    table.sort(f.paths)
  end
  table.sort(g, function(a, b) return a.paths[1] < b.paths[1] end)
  g.waste = g[1].size * (#g - 1)
end
table.sort(groups, function(a, b)
  if a.waste ~= b.waste then return a.waste > b.waste end
  return a[1].paths[1] < b[1].paths[1]
end)

local dups, waste = 0, 0
for i, g in ipairs(groups) do
  if i > 1 then s:print("") end
  for _, f in ipairs(g) do
    for _, p in ipairs(f.paths) do s:print(p) end
  end
  dups, waste = dups + #g - 1, waste + g.waste
end

-- --apply: link each duplicate to the kept file, if nothing changed since.
local function unchanged(file, path)
  local now = script.lstat(path)
  return now and now.type == "f" and now.dev == file.dev and now.ino == file.ino
    and now.size == file.size and now.mtime == file.mtime and now
end

-- Replace path, a name of file f, by a link to target (k: its stat now).
local function link(k, target, f, path)
  local now, why = unchanged(f, path), nil
  if not k or not now then
    why = "it or " .. target .. " changed since they were compared"
  elseif now.dev ~= k.dev then
    why = "on another filesystem than " .. target
  elseif now.uid ~= k.uid or now.gid ~= k.gid or now.perm ~= k.perm then
    why = "owner or permissions differ from " .. target .. "'s"
  end
  if why then
    s:warn("%s: not linked: %s", path, why)
    return false
  end
  local ok, err = script.replace_by_link(target, path)
  if not ok then s:fail(err, "link") end
  return ok
end

local linked, freed = 0, 0
if s.options.apply then
  for _, g in ipairs(groups) do
    local target = g[1].paths[1]
    local k = unchanged(g[1], target)
    for i = 2, #g do
      local all = true
      for _, path in ipairs(g[i].paths) do
        if link(k, target, g[i], path) then linked = linked + 1 else all = false end
      end
      if all then freed = freed + g[i].size end
    end
  end
end

if s.options.apply then
  s:note("%d groups; replaced %d files by hard links, about %s freed%s", #groups, linked,
    s:bytes_text(freed), s:trouble())
else
  s:note("%d groups, %d duplicate files, %s to reclaim%s (dry run: --apply links them)",
    #groups, dups, s:bytes_text(waste), s:trouble())
end
return s:finish()
