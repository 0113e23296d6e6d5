-- json.lua: luafind.json, Lua values and entries as JSON text: the string
-- rules of -json (lone surrogate escapes for bytes that are not UTF-8),
-- arrays and objects, numbers, errors, entries: the default set (one stat,
-- shared with the entry's fields), a field list that stats only for stat
-- fields, null and a message for what could not be had.

local T = dofile((arg[0]:match("^(.*)/") or ".") .. "/helper.lua")
local lf = T.lf
local json = lf.json

local function eq(got, want, what)
  assert(got == want, ("%s: got %s, expected %s"):format(what or "json", got, want))
end

-- Scalars.
eq(json(nil), "null")
eq(json(true), "true")
eq(json(false), "false")
eq(json(0), "0")
eq(json(-42), "-42")
eq(json(math.maxinteger), "9223372036854775807")
eq(json(math.mininteger), "-9223372036854775808")
eq(json(1.0), "1.0")
eq(json(-0.0), "-0.0")
eq(json(0.1), "0.1")
eq(json(1 / 3), "0.3333333333333333")
eq(json(1e300), "1e+300")
eq(json(2 ^ 53), "9007199254740992.0")
for _, x in ipairs{0.1, 1 / 3, 1e-300, 123456.789, 2 ^ -1074, 1.7976931348623157e308} do
  assert(tonumber(json(x)) == x, "a float does not read back: " .. json(x))
end

-- Strings: valid UTF-8 as it is, escapes for what JSON and terminals need,
-- other bytes as \udcXX.
eq(json(""), '""')
eq(json('a"b\\c/d'), '"a\\"b\\\\c/d"')
eq(json("\b\f\n\r\t\0\1\31\127"), '"\\b\\f\\n\\r\\t\\u0000\\u0001\\u001f\\u007f"')
eq(json("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), '"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"')
eq(json("\xc2\x85\xe2\x80\xa8\xe2\x80\xa9\xc2\xa0"), '"\\u0085\\u2028\\u2029\xc2\xa0"')
eq(json("bad\xff"), '"bad\\udcff"')
eq(json("\x80\xbf"), '"\\udc80\\udcbf"')
eq(json("\xed\xa0\x80"), '"\\udced\\udca0\\udc80"') -- an encoded surrogate is not UTF-8
eq(json("\xc0\xaf"), '"\\udcc0\\udcaf"')               -- nor an overlong form
eq(json("\xf4\x90\x80\x80"), '"\\udcf4\\udc90\\udc80\\udc80"') -- nor past U+10FFFF
eq(json("ok\xe2\x82"), '"ok\\udce2\\udc82"')           -- nor a cut sequence
local long = ("x\xff"):rep(40000)
eq(#json(long), 2 + 40000 * 7)

-- Tables: 1..n is an array, anything else an object with sorted keys.
eq(json{}, "[]")
eq(json{1, "two", {3}}, '[1,"two",[3]]')
eq(json{b = 1, a = 2, ["c d"] = {x = false}}, '{"a":2,"b":1,"c d":{"x":false}}')
eq(json{[1] = "a", [3] = "c"}, '{"1":"a","3":"c"}')
eq(json{"a", n = 1}, '{"1":"a","n":1}')
eq(json{[-1] = 0}, '{"-1":0}')
eq(json(setmetatable({}, {__jsontype = "object"})), "{}")
eq(json(setmetatable({1, 2}, {__jsontype = "array"})), "[1,2]")
eq(json{["\xff"] = 1}, '{"\\udcff":1}')
local shared = {1}
eq(json{shared, shared}, "[[1],[1]]") -- shared, not a cycle

-- Errors name what and where.
T.raises("cannot encode a function (at .f)", json, {f = print})
T.raises("cannot encode NaN (at the top)", json, 0 / 0)
T.raises("cannot encode an infinite number (at [2])", json, {1, math.huge})
T.raises("a key of type boolean cannot be a JSON object key", json, {[true] = 1})
T.raises("a key of type number cannot be a JSON object key", json, {[1.5] = 1})
T.raises('key "1" appears both as a string and as an integer', json, {[1] = 1, ["1"] = 2})
T.raises("cannot encode a userdata", json, io.stdout)
T.raises("cannot encode a thread", json, coroutine.create(print))
local cyc = {a = {}}
cyc.a.b = {cyc}
T.raises("a table contains itself (at .a.b[1])", json, cyc)
local deep = {}
local c = deep
for _ = 1, 1100 do c.x = {} c = c.x end
T.raises("tables nested too deeply", json, deep)
T.raises('__jsontype must be "array" or "object"', json, setmetatable({}, {__jsontype = "list"}))
T.raises("fields are for an entry only", json, {}, "path")

-- Entries: the object -json writes, without the newline.
local dir = T.workdir()
T.sh("cd " .. T.q(dir) .. " && mkdir d && printf 1234 > 'd/f\xff' && ln -s 'f\xff' d/l")
local default_keys = {"path", "name", "depth", "type", "size", "mode", "uid", "gid", "nlink", "ino", "dev",
                      "atime", "mtime", "ctime"}
local function keys_of(j)
  local ks = {}
  for k in j:gmatch('[{,]"(%a+)":') do ks[#ks + 1] = k end
  return table.concat(ks, ",")
end
local seen = {}
local before = lf.stats().stats
for e in lf.walk{dir .. "/d", sort = true} do
  if e.depth > 0 then
    -- a field list without stat fields makes no stat
    eq(json(e, "path,name,depth,type"), ('{"path":%s,"name":%s,"depth":1,"type":"%s"}'):format(
       json(e.path), json(e.name), e.type))
    eq(json(e, "path,target"), ('{"path":%s,"target":%s}'):format(json(e.path),
       e.type == "l" and json("f\xff") or "null"))
  end
end
eq(lf.stats().stats - before, 1, "stats made by json(entry, fields)") -- the root's, by the walk
before = lf.stats().stats
for e in lf.walk{dir .. "/d", sort = true} do
  local j, msg = json(e)
  assert(not msg, msg)
  seen[#seen + 1] = j
  -- the default set, whatever was read before: the same keys every time
  eq(keys_of(j), table.concat(default_keys, ","), "keys of " .. e.name)
  local size, mode = e.size, e.mode -- the stat json made, cached: no other
  assert(j:find(('"size":%d,"mode":%d,'):format(size, mode), 1, true), j)
end
eq(lf.stats().stats - before, 3, "stats made by json(entry)") -- one per entry
assert(seen[2]:find('^{"path":' .. json(dir .. "/d/f\xff"):gsub("%p", "%%%0") .. ',"name":"f\\udcff","depth":1,"type":"f","size":4,'),
       seen[2])
for e in lf.walk{dir .. "/d", sort = true} do
  if e.name == "f\xff" then
    local _ = e.size -- fetched before: the same object
    local o = json(e)
    eq(o, seen[2], "after e.size")
    assert(o:find('"size":4,', 1, true) and o:find('"mtime":%d+%.%d%d%d%d%d%d%d%d%d,'), o)
    eq(json(e, "size,perm"), ('{"size":4,"perm":%d}'):format(e.perm))
    eq(json{e}, "[" .. o .. "]")
    T.raises("unknown field 'szie' (did you mean 'size'?); fields: path name depth type size", json, e, "szie")
    T.raises("repeated field 'size'", json, e, "size,size")
    T.raises("empty field", json, e, "size,")
  end
end

-- A value that could not be had is null, with the reason after the text
-- (here the file vanished between the listing and the stat).
T.sh("cd " .. T.q(dir) .. " && mkdir v && touch v/gone v/kept")
for e in lf.walk{dir .. "/v", sort = true} do
  if e.name == "gone" then
    assert(os.remove(e.path))
    local j, msg, err = json(e, "name,size,type,mtime")
    eq(j, '{"name":"gone","size":null,"type":"f","mtime":null}', "a vanished file")
    eq(msg, e.path .. ": No such file or directory", "the message")
    eq(err, lf.errno.ENOENT, "the errno")
    local all, msg2 = json{e, {n = 1}}
    assert(all:find('"size":null', 1, true) and msg2 == msg, all)
  elseif e.name == "kept" then
    local j, msg = json(e, "name,size")
    eq(j, '{"name":"kept","size":0}', "the next entry")
    assert(msg == nil, msg)
  end
end
local stale
for e in lf.walk{dir .. "/d"} do stale = e end
T.raises("entry used after the walk moved on", json, stale)

-- -fjson writes a file: the safe policy refuses it before opening it.
T.raises("not allowed by the safe policy", lf.find, {dir, safe = true}, "-fjson", dir .. "/x.json")
assert(not io.open(dir .. "/x.json"), "-fjson opened its file under the safe policy")

T.done()
