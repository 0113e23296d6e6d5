-- build-artifacts: objects and libraries in build trees, Python caches, CMake and Cargo build dirs
--
-- Two walks, both by name alone: the first notes which directories hold
-- build files, the second removes.  Only what is selected is stat'ed.

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
local dirname = script.dirname

-- First walk: the directories holding build files, and where the files
-- that matter below are (node_modules is never looked into).
local build_dirs, has = {}, {}
for e in s:walk() do
  if e.type == "d" and (not_ours(e.name) or e.name == "node_modules") then
    e:prune()
  elseif e.type == "f" and build_files(e.name) then
    build_dirs[dirname(e.path)] = true
    has[e.path] = true
  elseif e.type == "f" and (e.name == "CMakeCache.txt" or e.name == "pyvenv.cfg") then
    has[e.path] = true
  end
end

-- Whether e is below a directory holding a build file (within its PATH).
local function in_build_tree(e)
  local dir = e.path
  for _ = 1, e.depth do
    dir = dirname(dir)
    if build_dirs[dir] then return true end
  end
  return false
end

local function artifact_dir(e)
  local name, path = e.name, e.path
  if caches(name) or name == "node_modules" then return true end
  if name == "target" and has[dirname(path) .. "/Cargo.toml"] then return true end
  return has[path .. "/CMakeCache.txt"] and not has[path .. "/CMakeLists.txt"]
end

local function artifact_file(e)
  local name = e.name
  return name:match("%.pyc$") or (objects(name) and in_build_tree(e))
end

-- Second walk: by name (and the first walk's notes) alone.
return s:clean{
  skip = function(e)
    local name = e.name
    return not_ours(name) or has[e.path .. "/pyvenv.cfg"] or (name == "node_modules" and not s.options.node)
  end,
  select = function(e)
    if e.type == "d" then return artifact_dir(e) end
    return (e.type == "f" or e.type == "l") and artifact_file(e)
  end,
}
