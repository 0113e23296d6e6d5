-- luafind.runner: `luafind --list-scripts` and `luafind --run NAME [ARG...]`.
--
-- The CLI calls main(mode, dirs, name, args) in its Lua state; dirs are the
-- script directories in priority order (the user's first, then those of
-- the installation and of the source tree).  A script NAME is the file
-- NAME.lua in the first directory holding one; a NAME containing "/" or
-- ending in ".lua" is a file, run the same way.  A script is an ordinary
-- Lua chunk, called with the arguments as `...` and in the global `arg`
-- (arg[0] is its file), as `luafind --script` would; it returns its exit
-- status (an integer; nil or true: 0; false: 1).  Its description for the
-- list is its first comment line, "-- NAME: description".
--
-- SPDX-License-Identifier: MIT

local lf = require "luafind"
local script = require "luafind.script"
local _G = _G
local ipairs, loadfile, math_type, tostring, xpcall =
  ipairs, loadfile, math.type, tostring, xpcall
local io_open, stderr, stdout = io.open, io.stderr, io.stdout
local getenv = os.getenv
local format = string.format
local sort, unpack = table.sort, table.unpack
local traceback = debug.traceback

_ENV = nil

local M = {}

-- The user's own script directory, as the CLI computes it (nil if neither
-- XDG_DATA_HOME nor HOME is set).
function M.user_dir()
  local xdg, home = getenv("XDG_DATA_HOME"), getenv("HOME")
  if xdg and xdg:sub(1, 1) == "/" then return xdg .. "/luafind/scripts" end
  if home and home ~= "" then return home .. "/.local/share/luafind/scripts" end
  return nil
end

-- Whether NAME names a file rather than a script.
local function is_path(name)
  return name:find("/", 1, true) ~= nil or name:match("%.lua$") ~= nil
end

local function readable(path)
  local f = io_open(path, "r")
  if f then f:close() end
  return f ~= nil
end

-- The file of script NAME: the first dirs[i]/NAME.lua, or nil.
function M.find(dirs, name)
  for _, dir in ipairs(dirs) do
    local path = dir .. "/" .. name .. ".lua"
    if readable(path) then return path end
  end
  return nil
end

-- Every script in dirs, sorted by name: {name =, path =, description =,
-- user =, overrides =}; the first occurrence of a name wins.
function M.scripts(dirs)
  local user = M.user_dir()
  local found, list = {}, {}
  for _, dir in ipairs(dirs) do
    for e in lf.walk{dir, maxdepth = 1, follow = "roots", sort = true, errors = "skip"} do
      local name = e.depth == 1 and (e.type == "f" or e.type == "l") and e.name:match("^([^.].*)%.lua$")
      if name and found[name] then
        found[name].overrides = true
      elseif name then
        local s = {name = name, path = e.path, user = dir == user,
                   description = script.describe(e.path, name)}
        found[name] = s
        list[#list + 1] = s
      end
    end
  end
  sort(list, function(a, b) return a.name < b.name end)
  return list
end

local function list(dirs)
  local scripts = M.scripts(dirs)
  local width = 0
  for _, s in ipairs(scripts) do
    if #s.name > width then width = #s.name end
  end
  for _, s in ipairs(scripts) do
    local mark = s.user and (s.overrides and " (user, replaces the bundled one)" or " (user)") or ""
    stdout:write(format("%-" .. width .. "s  %s%s\n", s.name, s.description or "(no description)", mark))
  end
  return 0
end

-- The message handler: a script.exit() object as it is, anything else as
-- a message with a traceback (down to the script's main chunk).
local function handler(err)
  if script.is_exit(err) then return err end
  return (traceback(tostring(err), 2):gsub("\n%s*%[C%]: in function 'xpcall'.*$", ""))
end

-- Run the script in file path with args; returns the exit status.
function M.run(path, args)
  local chunk, err = loadfile(path)
  if not chunk then
    stderr:write("luafind: --run: ", err, "\n")
    return 1
  end
  local arg = {[0] = path}
  for i, a in ipairs(args) do arg[i] = a end
  _G.arg = arg
  script.managed = true
  local ok, status = xpcall(chunk, handler, unpack(args))
  stdout:flush()
  if not ok then
    if script.is_exit(status) then
      if status.message then stderr:write("luafind: ", status.message, "\n") end
      return status.status
    end
    stderr:write("luafind: ", status, "\n")
    return 1
  end
  if status == nil or status == true then return 0 end
  if math_type(status) == "integer" then return (status >= 0 and status <= 255) and status or 1 end
  return 1
end

-- The script name nearest to name (script.nearest), or nil.
function M.suggest(dirs, name)
  local names = {}
  for i, s in ipairs(M.scripts(dirs)) do names[i] = s.name end
  return script.nearest(name, names)
end

function M.main(mode, dirs, name, args)
  if mode == "list" then return list(dirs) end
  local path = name
  if name == "" then
    stderr:write("luafind: --run needs a script name (see luafind --list-scripts)\n")
    return 2
  elseif not is_path(name) then
    path = M.find(dirs, name)
    if not path then
      stderr:write(format("luafind: --run: no script named '%s' (luafind --list-scripts lists them)\n", name))
      local near = M.suggest(dirs, name)
      if near then stderr:write(format("luafind: did you mean '%s'?\n", near)) end
      return 2
    end
  elseif not readable(path) then
    stderr:write(format("luafind: --run: cannot read '%s'\n", path))
    return 2
  end
  return M.run(path, args)
end

return M
