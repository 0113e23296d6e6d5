-- build-artifacts: objects and libraries in build trees, Python caches, CMake and Cargo build dirs
--
-- Two walks, both by name alone: the first notes which directories hold
-- build files, the second removes.  Only what is selected is stat'ed.
--
-- SPDX-License-Identifier: MIT

local script = require "luafind.script"

local s = script.new{
  apply = "remove them",
  options = {
    {"node", help = "also remove node_modules directories"},
  },
  help = [[
Removes what a build regenerates:
  - *.o, *.a and *.so files inside a build tree: a directory holding a build
    file (Makefile, makefile, GNUmakefile, CMakeLists.txt, configure,
    meson.build, build.ninja, Cargo.toml, setup.py, pyproject.toml,
    package.json), its own or an ancestor's below the PATH;
  - *.pyc files and __pycache__, .pytest_cache and .mypy_cache directories;
  - CMake build directories: a directory holding CMakeCache.txt (but not an
    in-source build, which also holds CMakeLists.txt);
  - Cargo's target/ directories, beside a Cargo.toml;
  - node_modules directories, only with --node.
Never entered: .git, .hg and .svn; virtual environments (a directory holding
pyvenv.cfg) and site-packages or dist-packages, whose *.so are installed
packages, not build output; node_modules without --node.]],
}

local build_files = script.matcher{"Makefile", "makefile", "GNUmakefile", "CMakeLists.txt",
  "configure", "meson.build", "build.ninja", "Cargo.toml", "setup.py", "pyproject.toml",
  "package.json"}
local objects = script.matcher{"*.o", "*.a", "*.so"}
local caches = script.matcher{"__pycache__", ".pytest_cache", ".mypy_cache"}
local not_ours = script.matcher{".git", ".hg", ".svn", "site-packages", "dist-packages"}
-- What the first walk notes, as a tree of names (no paths: memory and time
-- per entry stay constant at any depth): tries[root index] is the node of
-- a PATH, node.kids[name] that of a directory below it; node.files holds
-- the names of the files that matter in that directory (build files,
-- CMakeCache.txt, pyvenv.cfg), node.build whether one is a build file.
-- Only directories on the way to such a file get a node.
local tries = {}
local names, made = {}, {}   -- the directories on the way: names, and nodes once made

-- The node of the directory at depth d on the current way (made, with its
-- ancestors, if it is not yet).
local function node_at(d)
  local k = d
  while k >= 0 and not made[k] do k = k - 1 end
  for i = k + 1, d do
    local up = i == 0 and tries or made[i - 1].kids
    local n = up[names[i]]
    if not n then
      n = {kids = {}, files = {}}
      up[names[i]] = n
    end
    made[i] = n
  end
  return made[d]
end

-- First walk: the directories holding build files, and where the files
-- that matter below are (node_modules is never looked into).
for e in s:walk() do
  local d = e.depth
  if e.type == "d" and (not_ours(e.name) or e.name == "node_modules") then
    e:prune()
  elseif e.type == "d" then
    names[d] = d == 0 and e.root or e.name
    made[d] = false
  elseif e.type == "f" and d > 0 then
    local name = e.name
    local build = build_files(name)
    if build or name == "CMakeCache.txt" or name == "pyvenv.cfg" then
      local dir = node_at(d - 1)
      dir.files[name] = true
      dir.build = dir.build or build
    end
  end
end

-- Second walk: the rules follow the way down with the tree.  skip(e) is
-- called for every directory below the PATHs that the cleanup looks into,
-- before select(e) and before anything inside it: there, cur[d] becomes
-- the node of the directory at depth d (nil: nothing noted below it), and
-- inb[d] whether it or a directory above it (within its PATH) holds a
-- build file.
local cur, inb, cur_root = {}, {}, nil

local function enter_root(e)
  if e.root ~= cur_root then
    cur_root = e.root
    cur[0] = tries[cur_root]
    inb[0] = cur[0] and cur[0].build or false
  end
end

local function noted(n, name)
  return n ~= nil and n.files[name] == true
end

local function artifact_dir(e)
  local name, d = e.name, e.depth
  if caches(name) or name == "node_modules" then return true end
  if name == "target" and noted(cur[d - 1], "Cargo.toml") then return true end
  return noted(cur[d], "CMakeCache.txt") and not noted(cur[d], "CMakeLists.txt")
end

local function artifact_file(e)
  local name = e.name
  return name:match("%.pyc$") or (objects(name) and inb[e.depth - 1])
end

return s:clean{
  skip = function(e)
    enter_root(e)
    local d, name = e.depth, e.name
    local up = cur[d - 1]
    local n = up and up.kids[name]
    cur[d] = n
    inb[d] = inb[d - 1] or (n ~= nil and n.build == true)
    return not_ours(name) or noted(n, "pyvenv.cfg") or (name == "node_modules" and not s.options.node)
  end,
  select = function(e)
    enter_root(e)
    if e.type == "d" then return artifact_dir(e) end
    return (e.type == "f" or e.type == "l") and artifact_file(e)
  end,
}
