-- pred.lua: the -lua primary and the script runner of lfcli.h, through the
-- test host (which uses them as the luafind executable does): outputs equal
-- GNU find's for equivalent expressions, free variables, syntax and runtime
-- errors (a runtime error stops the walk at once), stale references, and
-- --script's arg, errors with traceback, and os.exit.

local T = dofile((arg[0]:match("^(.*)/") or ".") .. "/helper.lua")
local work = T.workdir()
local root = work .. "/t"
local host = T.host()

T.tree(root, {
  "mkdir -p src/core src/cli doc empty .hidden 'with space' \"$(printf 'bad\\377dir')\"",
  "for f in src/core/walk.c src/core/walk.h src/cli/main.c doc/guide.txt Makefile .hidden/x.c; do printf 'content of %s\\n' $f > $f; done",
  "head -c 20000 /dev/zero > src/big.bin && : > src/empty.txt",
  "printf x > \"$(printf 'bad\\377dir')/caf\\303\\251.c\" && printf y > 'with space/a b.c'",
  "printf 'new\\nline' > \"$(printf 'new\\nline.c')\"",
  "touch -d @1000000000 doc/guide.txt && chmod 600 Makefile",
  "ln -s src/core link && ln -s nowhere broken",
})

-- Sorted NUL-free output lines of a command run in root.
local function run(cmd)
  local out, ok, code = T.capture("cd " .. T.q(root) .. " && LC_ALL=C " .. cmd .. " 2>&1")
  local lines = T.lines(out)
  table.sort(lines)
  return lines, ok, code, out
end

local function lua_pred(expr, extra)
  return run(T.q(host) .. " " .. (extra or "") .. " . -lua " .. T.q(expr))
end

-- -lua expressions against the equivalent find expressions.
local cases = {
  {'name:match("%.c$")', "-name '*.c'"},
  {'type == "f" and name:match("%.c$")', "-type f -name '*.c'"},
  {'type == "d"', "-type d"},
  {'type == "l"', "-type l"},
  {'size > 100', "-size +100c"},
  {'type == "f" and size == 0', "-type f -empty"},
  {'depth >= 2', "-mindepth 2"},
  {'depth <= 1 and type ~= "d"', "-maxdepth 1 ! -type d"},
  {'mtime < 1000000001 and mtime >= 1000000000', "-newermt @999999999 ! -newermt @1000000000"},
  {'perm == 384', "-perm 600"},
  {'glob("*.[ch]"):match(name)', "-name '*.[ch]'"},
  {'regex([[^\\./src/.*\\.c$]]):test(path)', "-regex '\\./src/.*\\.c'"},
  {'path:find("/src/", 1, true) ~= nil', "-path '*/src/*'"},
  {'nlink > 1 and type == "d"', "-type d -links +1"},
  {'ino > 0 and user == "' .. T.capture("id -un"):gsub("\n", "") .. '"', "-user " .. T.capture("id -un"):gsub("\n", "")},
}
for _, c in ipairs(cases) do
  local got, ok = lua_pred(c[1])
  assert(ok, c[1] .. ": " .. table.concat(got, "\n"))
  local want = run("find . " .. c[2])
  T.same(got, want, "-lua '" .. c[1] .. "' vs find " .. c[2])
end
do -- with -L (the host's -L is LF_LOGICAL)
  local got = lua_pred('type == "f" and name:match("%.c$")', "-L")
  local want = run("find -L . -type f -name '*.c'")
  T.same(got, want, "-L")
end

-- Free variables: fields first (type is the field, not the function),
-- then helpers, then the globals; `e` is the entry object.
do
  local function one(expr)
    local out, ok = lua_pred(expr)
    assert(ok, expr .. ": " .. table.concat(out, "\n"))
    return out
  end
  T.same(one('type == "f" and size == 20000'), {"./src/big.bin"}, "type and size")
  T.same(one('size > 10*KiB and size < MiB and GiB > MiB and TiB > GiB'), {"./src/big.bin"}, "units")
  T.same(one('minutes == 60 and hours == 3600 and days == 86400 and weeks == 604800 and name == "Makefile"'),
    {"./Makefile"}, "durations")
  T.same(one('mtime < now - 365*days and math.type(now) == "integer"'), {"./doc/guide.txt"}, "now")
  T.same(one('name == "Makefile" and lf.KiB == 1024 and type == "f"'), {"./Makefile"}, "lf")
  local out = lua_pred('name == "Makefile" and type(1)')
  -- Lua's own errors say where, as Lua words them: the chunk is -lua.
  assert(out[1] == "host: ./Makefile: -lua:1: attempt to call a string value (global 'type')", out[1])
  T.same(one('e.name == "link" and e:readlink() == "src/core"'), {"./link"}, "e and methods")
  T.same(one('error == nil and visit == "pre" and root == 1 and depth == 0'), {"."}, "error, visit, root")
  T.same(one('name == "Makefile" and string.upper(name) == "MAKEFILE" and tostring(e) == path'),
    {"./Makefile"}, "globals")
  T.same(one('name == "core" and e:prune()'), {"./src/core"}, "prune")
  T.same(one('regex("\\\\.C$", "i"):test(name) and depth == 3'), {"./src/cli/main.c", "./src/core/walk.c"}, "regex")
  T.same(one('e:snapshot().name == "Makefile"'), {"./Makefile"}, "snapshot")
  T.same(one('nil'), {}, "nil is false")
  T.same(one('name == "empty" and 0'), {"./empty"}, "0 is true in Lua")
  T.same(one('name == "Makefile" -- a comment at the end'), {"./Makefile"}, "trailing comment")
end

-- Syntax errors: reported before the walk, exit 1.
do
  local out, ok, code = lua_pred("size >")
  assert(not ok and code == 1)
  assert(#out == 1 and out[1] == "luafind: -lua:1: unexpected symbol near <eof>", out[1])
  out = lua_pred("name ==")
  assert(out[1]:match("^luafind: %-lua:%d: "), out[1])
  out = lua_pred("x = 1")
  assert(out[1]:match("^luafind: %-lua:1: "), out[1])
  out = lua_pred("1) or (2")
  assert(#out == 1 and out[1]:match("^luafind: %-lua:1: "), "an expression is one expression")
  out = lua_pred("name, size")
  assert(out[1] == "luafind: -lua:1: ')' expected near ','", out[1])
  out = lua_pred("name ==\n\n")
  assert(out[1]:match("^luafind: %-lua:%d: unexpected symbol near <eof>"), out[1])
  -- A name that is no field, helper or global: an error before the walk,
  -- with the closest name.
  out, ok, code = lua_pred("szie > 1")
  assert(not ok and code == 1 and #out == 1, table.concat(out, "\n"))
  assert(out[1] == "luafind: -lua: unknown name 'szie' (did you mean 'size'?)", out[1])
  out = lua_pred("type == 'f' and mtmie < now")
  assert(out[1] == "luafind: -lua: unknown name 'mtmie' (did you mean 'mtime'?)", out[1])
  out = lua_pred("nosuch_thing_here")
  assert(out[1]:match("^luafind: %-lua: unknown name 'nosuch_thing_here' %(not an entry field"), out[1])
  -- Locals, parameters, table keys, methods, fields of globals, strings and
  -- comments are not free names.
  for _, x in ipairs{'({sise = 1}).sise == 1', 'name:upper() ~= "" and string.len(name) > 0',
                     '(function(sise) local x <const> = sise; for k, v in pairs{} do end return x end)(1) == 1',
                     '"szie" ~= [[nosuch]] -- nosuch', 'math.maxinteger > 0 and lf ~= nil and KiB == 1024'} do
    out, ok = lua_pred(x)
    assert(ok and out[1] == ".", x .. ": " .. table.concat(out, "\n"))
  end
end

-- Runtime errors stop the walk at once with the path, exit 1.
do
  local out, ok, code, raw = run(T.q(host) .. " --stats . -lua " .. T.q('depth == 0 or size > tonumber("x")'))
  assert(not ok and code == 1)
  assert(raw:match("^%.\nhost: %./[^\n]+: %-lua:1: attempt to compare nil with number\n"), raw)
  assert(raw:find(" entries=2 ", 1, true), "the walk stopped at the first error: " .. raw)
  out = lua_pred('name == "Makefile" and _G.error("boom", 0)')
  assert(out[1] == "host: ./Makefile: boom", out[1])
  out = lua_pred('name == "Makefile" and assert(false, "failed")')
  assert(out[1] == "host: ./Makefile: -lua:1: failed", out[1]) -- as lua5.4 words assert
  -- A name read at run time that nothing defines is an error, not nil.
  out = lua_pred('_ENV["si" .. "se"] > 1')
  assert(out[1] == "host: .: -lua:1: unknown name 'sise' (did you mean 'size'?)", out[1])
  out = lua_pred('depth == 0 and (function() saved = saved or e return saved.name end)() == "."')
  assert(out[1] == "." and #out == 1, table.concat(out, "\n"))
  out = lua_pred('e.sise')
  assert(out[1]:match("^host: %.: %-lua:1: luafind: entry has no field 'sise'$"), out[1])
  -- The CLI's walker cannot be driven from Lua: the entries' owner is a view.
  out = lua_pred('debug.getuservalue(e, 1):next()')
  assert(out[1]:match("^host: %.: .*attempt to index a luafind.EntryView value"), out[1])
  -- A reference kept from an earlier entry is stale.
  out = lua_pred('(function() saved = saved or e return saved.name end)()')
  assert(out[1] == "." and out[2]:match("entry used after the walk moved on"), table.concat(out, "\n"))
end

-- --script: arg, ..., os.exit, errors with a traceback.
do
  local script = work .. "/s.lua"
  T.write(script, [[
    local lf = require "luafind"
    assert(arg[0] == ... and select("#", ...) == 0 or arg[1] == ...)
    print(arg[0]:match("s%.lua$") and "arg0", #arg, ...)
    local n = 0
    for e in lf.walk(arg[1]) do n = n + 1 end
    print("entries", n)
  ]])
  local out, ok = T.capture(T.q(host) .. " --script " .. T.q(script) .. " " .. T.q(root) .. " b 2>&1")
  assert(ok and out:match("^arg0\t2\t" .. root:gsub("%p", "%%%0") .. "\tb\nentries\t%d+\n$"), out)

  T.write(script, "#!/usr/bin/env -S luafind --script\nprint('shebang')\nos.exit(3)\n")
  local out2, ok2, code2 = T.capture(T.q(host) .. " --script " .. T.q(script) .. " 2>&1")
  assert(not ok2 and code2 == 3 and out2 == "shebang\n", out2)
  -- What the script returns is the exit status, as under --run.
  for _, c in ipairs{{"return 4", 4}, {"return false", 1}, {"return true", 0}, {"return", 0},
                     {"return 300", 1}, {"return 'x'", 1}} do
    T.write(script, c[1] .. "\n")
    local _, okc, codec = T.capture(T.q(host) .. " --script " .. T.q(script) .. " 2>&1")
    assert(codec == c[2] and (okc == true) == (c[2] == 0), c[1] .. ": " .. tostring(codec))
  end

  T.write(script, "local function f()\n  error('failed here')\nend\nf()\n")
  local out3, ok3, code3 = T.capture(T.q(host) .. " --script " .. T.q(script) .. " 2>&1")
  assert(not ok3 and code3 == 1)
  local chunk = T.chunkname(script)
  assert(out3:find("luafind: " .. chunk .. ":2: failed here\nstack traceback:\n", 1, true), out3)
  assert(out3:find(chunk .. ":4: in main chunk", 1, true), out3)

  T.write(script, "local x = = 1\n")
  local out4, ok4, code4 = T.capture(T.q(host) .. " --script " .. T.q(script) .. " 2>&1")
  assert(not ok4 and code4 == 1 and out4 == "luafind: " .. chunk .. ":1: unexpected symbol near '='\n", out4)

  local out5, ok5 = T.capture(T.q(host) .. " --script " .. T.q(work .. "/nope.lua") .. " 2>&1")
  assert(not ok5 and out5 == "luafind: cannot open " .. work .. "/nope.lua: No such file or directory\n", out5)

  T.write(script, "error(setmetatable({}, {__tostring = function() return 'custom' end}))\n")
  local out6 = T.capture(T.q(host) .. " --script " .. T.q(script) .. " 2>&1")
  assert(out6 == "luafind: custom\n", out6)

  local out7, ok7 = T.capture("echo 'print(1 + 1)' | " .. T.q(host) .. " --script - 2>&1")
  assert(ok7 and out7 == "2\n", out7)

  -- A script's walks release their fds when it breaks out of a loop.
  T.write(script, [[
    local lf = require "luafind"
    local function fds() local n = 0 for _ in lf.walk{"/proc/self/fd", mindepth = 1} do n = n + 1 end return n end
    local base = fds()
    for e in lf.walk(arg[1]) do if e.depth == 2 then break end end
    assert(fds() == base)
    print("ok")
  ]])
  local out8, ok8 = T.capture(T.q(host) .. " --script " .. T.q(script) .. " " .. T.q(root) .. " 2>&1")
  assert(ok8 and out8 == "ok\n", out8)
end

T.ok("pred")

T.done()
