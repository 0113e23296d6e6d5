-- helper.lua: what the Lua tests share: the scratch directory, shell
-- commands, error assertions, and running Lua code in a child process.
--
-- Each test is run as `lua5.4 TEST.lua WORKDIR` (LUA_PATH/LUA_CPATH at the
-- build tree), as `HOST --script TEST.lua WORKDIR` (tests/lua/host.c, a C
-- host using lfcli.h) and as `luafind --script TEST.lua WORKDIR`, and loads
-- this file with
--   local T = dofile(arg[0]:match("^(.*)/") .. "/helper.lua")
-- and ends with T.done(): the scratch directory is removed (it is kept, and
-- named, when the test fails before), and if a check was skipped (T.skip)
-- the test exits 77, which CTest reports as skipped (SKIP_RETURN_CODE).

local T = {}

T.lf = require "luafind"
T.dir = arg[0]:match("^(.*)/") or "."

-- The interpreter running us: stock lua (it sets arg[-1]), or a C host
-- running us with lf_lua_run_script (luafind --script, the test host).
T.stock = arg[-1] ~= nil
T.mode = T.stock and "lua5.4" or "script"

function T.q(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

function T.sh(cmd)
  local ok, how, code = os.execute(cmd)
  assert(ok, ("command failed (%s %s): %s"):format(how, code, cmd))
end

-- The output of a shell command, and whether it succeeded, and its status.
function T.capture(cmd)
  local f = assert(io.popen(cmd, "r"))
  local out = f:read("a")
  local ok, _, code = f:close()
  return out, ok, code
end

-- How Lua names a script file in messages: luaO_chunkid keeps at most
-- LUA_IDSIZE (60) bytes of "@path", so a long path is shown as "..." and
-- its last 56 bytes. Tests run from any clone path, so expect that.
function T.chunkname(path)
  if #path + 1 <= 60 then return path end
  return "..." .. path:sub(-56)
end

-- The skipped checks, the scratch directory, and whether T.done ran.
local skipped, scratch, done = {}, nil, false

-- At the end of the run (lua_close), a test that never reached T.done
-- failed: say where its scratch files are.
T._sentinel = setmetatable({}, {__gc = function()
  if not done and scratch then
    io.stderr:write("failed: scratch files kept in ", scratch, "\n")
  end
end})

function T.workdir()
  local dir = assert(arg[1], "usage: TEST.lua WORKDIR")
  T.sh("chmod -R u+rwx " .. T.q(dir) .. " 2>/dev/null; rm -rf " .. T.q(dir) .. " && mkdir -p " .. T.q(dir))
  scratch = dir
  return dir
end

-- Make directory @root and run the shell commands @cmds in it, in order,
-- each only if the one before succeeded: a test's tree.
function T.tree(root, cmds)
  T.sh("mkdir -p " .. T.q(root) .. " && cd " .. T.q(root) .. " && " .. table.concat(cmds, " && "))
end

function T.write(path, data)
  local f = assert(io.open(path, "wb"))
  f:write(data)
  f:close()
end

function T.read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

-- Assert that fn(...) raises an error whose message contains `needle`.
function T.raises(needle, fn, ...)
  local ok, err = pcall(fn, ...)
  assert(not ok, "expected an error containing: " .. needle)
  err = tostring(err)
  assert(err:find(needle, 1, true), ("error %q does not contain %q"):format(err, needle))
  return err
end

-- Every entry of a walk as a list of snapshots (or of `field` values).
function T.collect(opts, field)
  local out = {}
  for e in T.lf.walk(opts) do
    if field then
      out[#out + 1] = e[field]
    else
      out[#out + 1] = e:snapshot()
    end
  end
  return out
end

function T.sorted(t)
  local c = {}
  for i, v in ipairs(t) do c[i] = v end
  table.sort(c)
  return c
end

function T.same(a, b, what)
  local sa, sb = table.concat(a, "\n"), table.concat(b, "\n")
  if sa ~= sb then
    error(("%s differ:\n--- got\n%s\n--- expected\n%s"):format(what or "lists", sa, sb), 2)
  end
end

-- Lines of a string, without the empty last one.
function T.lines(s)
  local t = {}
  for l in s:gmatch("([^\n]*)\n") do t[#t + 1] = l end
  return t
end

-- The number of open fds of this process.
function T.fds()
  local n = 0
  for _ in T.lf.walk{"/proc/self/fd", mindepth = 1} do n = n + 1 end
  return n
end

-- The LD_PRELOAD a child needs: the ASan runtime first in sanitized builds.
function T.preload(extra)
  local list = {}
  local asan = os.getenv("LUAFIND_TEST_PRELOAD")
  if asan and asan ~= "" then list[#list + 1] = asan end
  if extra then list[#list + 1] = extra end
  return table.concat(list, ":")
end

-- Run Lua `code` in a child process like this one (stock lua or the host),
-- with extra environment assignments `env` (a string) and under the
-- command prefix `wrap`; returns its stdout and stderr, success and status.
function T.run_lua(work, code, env, wrap)
  local file = work .. "/child.lua"
  T.write(file, code)
  local cmd
  if T.stock then
    cmd = T.q(arg[-1]) .. " " .. T.q(file)
  else
    cmd = T.q(assert(os.getenv("LUAFIND_TEST_HOST"))) .. " --script " .. T.q(file)
  end
  return T.capture((env or "") .. " " .. (wrap or "") .. " " .. cmd .. " 2>&1")
end

function T.host()
  return assert(os.getenv("LUAFIND_TEST_HOST"), "LUAFIND_TEST_HOST is not set")
end

-- A command prefix that drops the DAC capabilities, so that mode 000
-- directories stop even root; nil if capsh is missing.
function T.nodac()
  if not T.is_root() then return "" end
  local _, ok = T.capture("command -v capsh >/dev/null")
  if not ok then return nil end
  return "capsh --drop=cap_dac_override,cap_dac_read_search -- -c 'exec \"$0\" \"$@\"'"
end

function T.is_root()
  return T.capture("id -u") == "0\n"
end

function T.ok(name)
  print(("ok %s (%s)"):format(name, T.mode))
end

-- Whether this is a CI run (CI set to anything but "", "false" or "0"):
-- there every tool tools/setup.sh installs is present.
function T.ci()
  local ci = os.getenv("CI")
  return ci ~= nil and ci ~= "" and ci ~= "false" and ci ~= "0"
end

-- A check that cannot run here.  With `tool` (a program tools/setup.sh
-- installs), a CI run fails instead; without, the reason is the machine's
-- (no block device, not root) and it is a skip everywhere.  T.done then
-- exits 77: the test is reported as skipped, not passed.
function T.skip(name, why, tool)
  if tool and T.ci() then
    error(("%s: %s (%s is missing, and CI is set: tools/setup.sh installs it)"):format(name, why, tool), 2)
  end
  print(("skip %s (%s): %s"):format(name, T.mode, why))
  skipped[#skipped + 1] = name
end

-- The end of a test: every check passed or was skipped.  Removes the
-- scratch directory; exits 77 if something was skipped.
function T.done()
  done = true
  if scratch then
    T.sh("chmod -R u+rwx " .. T.q(scratch) .. " 2>/dev/null; rm -rf " .. T.q(scratch))
  end
  if #skipped > 0 then
    print(("skipped (%s): %d check(s) could not run: %s"):format(T.mode, #skipped, table.concat(skipped, "; ")))
    io.stdout:flush()
    os.exit(77)
  end
end

return T
