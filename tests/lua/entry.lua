-- entry.lua: every field and method of the entry, every error path:
-- unknown fields, read-only fields, stat/open/readlink/realpath/delete
-- failures, error entries, root names, paths longer than PATH_MAX.

local T = dofile((arg[0]:match("^(.*)/") or ".") .. "/helper.lua")
local lf = T.lf
local work = T.workdir()
local root = work .. "/t"

T.tree(root, {
  "mkdir -p dir/sub",
  "head -c 1234 /dev/zero > file",
  "chmod 640 file",
  "touch -d @1000000000.5 file",
  "ln file hardlink",
  "ln -s file link",
  "ln -s nowhere broken",
  "ln -s dir dirlink",
  "mkfifo fifo",
  "echo hello > dir/sub/inner",
})

-- The entry for `rel` below root, passed to fn while it is current.
local function with(rel, fn, opts)
  opts = opts or {}
  opts[1] = root
  local found = false
  for e in lf.walk(opts) do
    if e.path == root .. "/" .. rel or (rel == "." and e.path == root) then
      found = true
      fn(e)
    end
  end
  assert(found, "no entry " .. rel)
end

local uid = tonumber((T.capture("id -u")))
local gid = tonumber((T.capture("id -g")))
local uname = T.capture("id -un"):gsub("\n", "")
local gname = T.capture("id -gn"):gsub("\n", "")

-- Fields of a regular file.
with("file", function(e)
  assert(e.name == "file" and e.path == root .. "/file" and e.depth == 1)
  assert(e.type == "f" and e.visit == "pre" and e.error == nil and e.root == 1)
  assert(math.type(e.ino) == "integer" and e.ino > 0)
  assert(e.size == 1234 and math.type(e.size) == "integer")
  assert(e.mode == 0x8000 | 0x1a0, ("mode %o"):format(e.mode)) -- S_IFREG | 0640
  assert(e.perm == 0x1a0)
  assert(e.uid == uid and e.gid == gid)
  assert(e.user == uname and e.group == gname, tostring(e.user) .. " " .. tostring(e.group))
  assert(e.nlink == 2, "hard link")
  assert(math.type(e.dev) == "integer" and e.rdev == 0)
  assert(e.blocks >= 0 and e.blksize > 0)
  assert(e.mtime == 1000000000 and e.mtime_nsec == 500000000, e.mtime .. "." .. e.mtime_nsec)
  assert(e.atime == 1000000000 and e.atime_nsec == 500000000)
  assert(math.type(e.ctime) == "integer" and e.ctime >= lf.started - 60)
  assert(e.ctime_nsec >= 0 and e.ctime_nsec < 1000000000)
  assert(e.btime == nil or (math.type(e.btime) == "integer" and math.type(e.btime_nsec) == "integer"))
  assert(tostring(e) == e.path)

  local st = e:stat()
  assert(type(st) == "table" and st.size == 1234 and st.ino == e.ino and st.type == "f")
  for _, k in ipairs{"mode", "perm", "uid", "gid", "user", "group", "nlink", "dev", "rdev",
                     "blocks", "blksize", "atime", "mtime", "ctime", "atime_nsec",
                     "mtime_nsec", "ctime_nsec"} do
    assert(st[k] == e[k], k)
  end
  assert(st.btime == e.btime)
  -- The same numbers as stat(1).
  local want = T.capture("stat -c '%i %s %h %u %g %Y %a' " .. T.q(e.path))
  local got = ("%d %d %d %d %d %d %o\n"):format(e.ino, e.size, e.nlink, e.uid, e.gid, e.mtime, e.perm)
  assert(got == want, got .. " vs " .. want)
end)

-- The types: d l p, c (/dev/null) and b (a block device in /dev, if any).
with("dir", function(e) assert(e.type == "d" and e.size >= 0 and e.mode & 0xF000 == 0x4000) end)
with("link", function(e) assert(e.type == "l" and e.mode & 0xF000 == 0xA000) end)
with("fifo", function(e) assert(e.type == "p") end)
for e in lf.walk("/dev/null") do
  assert(e.type == "c" and e.name == "null" and e.rdev ~= 0)
end
do
  local block
  for e in lf.walk{"/dev", maxdepth = 1, errors = "skip"} do
    if e.type == "b" then block = e.path break end
  end
  if block then T.ok("entry: block device " .. block) else T.skip("entry: type b", "no block device in /dev") end
end
do -- a socket, if python3 can make one
  local sock = root .. "/sock"
  local _, ok = T.capture("python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' " ..
    T.q(sock) .. " 2>/dev/null")
  if ok then
    with("sock", function(e) assert(e.type == "s") end)
    os.remove(sock)
  else
    T.skip("entry: type s", "python3 cannot create a socket")
  end
end

-- Root names: the last component, also with trailing slashes.
for e in lf.walk{root .. "/dir/", maxdepth = 0} do
  assert(e.name == "dir" and e.path == root .. "/dir/" and e.depth == 0)
end
for e in lf.walk{"/", maxdepth = 0} do assert(e.name == "/" and e.type == "d") end
for e in lf.walk{"//", maxdepth = 0} do assert(e.name == "/") end
for e in lf.walk{".", maxdepth = 0} do assert(e.name == "." and e.path == ".") end
do
  local names = {}
  for e in lf.walk{root .. "/dir", sort = true} do names[#names + 1] = e.name end
  T.same(names, {"dir", "sub", "inner"}, "names")
end

-- Unknown and read-only fields.
with("file", function(e)
  T.raises("luafind: entry has no field 'sise'", function() return e.sise end)
  T.raises("luafind: entry has no field 1", function() return e[1] end)
  T.raises("luafind: entry fields are read-only (assigning 'size')", function() e.size = 1 end)
  T.raises("luafind.Entry expected", debug.getmetatable(e).__index, {}, "name")
  -- The metatable is hidden (its __gc and methods out of Lua code's reach).
  assert(getmetatable(e) == "luafind.Entry")
  T.raises("luafind.Entry expected, got table", e.stat, {})
end)

-- stat(follow): the link itself or its target.
with("link", function(e)
  assert(e:stat().type == "l" and e:stat(false).type == "l")
  local t = e:stat(true)
  assert(t.type == "f" and t.size == 1234)
  assert(e.size == #"file", "a link's size is its target's name length")
end)
with("broken", function(e)
  local ok, msg, errno = e:stat(true)
  assert(ok == nil and msg == e.path .. ": No such file or directory" and errno == 2, msg)
  assert(e:stat(false).type == "l")
end)
with("dirlink", function(e)
  assert(e.type == "d" and e:stat().type == "d" and e:stat(false).type == "l")
end, {follow = "always"})
with("broken", function(e)
  assert(e.type == "l", "a broken link is described by the link itself under follow = always")
  assert(e.size == #"nowhere")
end, {follow = "always"})

-- open(): a real Lua file, relative to the directory fd.
do
  local base = T.fds()
  with("dir/sub/inner", function(e)
    local f = assert(e:open())
    assert(io.type(f) == "file")
    assert(f:read("a") == "hello\n")
    assert(f:close())
    local g = assert(e:open("a"))
    g:write("more\n")
    g:close()
    assert(T.read(e.path) == "hello\nmore\n")
    local h = assert(e:open("r+b"))
    assert(h:read("l") == "hello")
    h:close()
    local _ = e:open() -- left to the collector
    T.raises("(invalid mode)", e.open, e, "rw")
    T.raises("invalid mode", e.open, e, "x")
  end)
  collectgarbage()
  collectgarbage()
  assert(T.fds() == base, "files closed")
  with("link", function(e)
    local ok, msg, errno = e:open()
    assert(not ok and errno == 40 and msg == e.path .. ": Too many levels of symbolic links", msg)
  end)
  with("link", function(e)
    local f = assert(e:open())
    assert(#f:read("a") == 1234)
    f:close()
  end, {follow = "always"})
  with("broken", function(e)
    local ok, _, errno = e:open()
    assert(not ok and (errno == 40 or errno == 2))
  end, {follow = "always"})
  with("dirlink", function(e)
    assert(e:open(), "the root's link is followed under follow = roots")
  end, {follow = "always"})
end

-- readlink() and realpath().
with("link", function(e)
  assert(e:readlink() == "file")
  local real = T.capture("realpath " .. T.q(root .. "/file")):gsub("\n", "")
  assert(e:realpath() == real, e:realpath())
end)
with("file", function(e)
  local ok, msg, errno = e:readlink()
  assert(not ok and errno == 22 and msg == e.path .. ": Invalid argument")
  assert(e:realpath():sub(1, 1) == "/")
end)
with("broken", function(e)
  local ok, _, errno = e:realpath()
  assert(not ok and errno == 2)
  assert(e:readlink() == "nowhere")
end)
with("dir/sub", function(e)
  local real = T.capture("realpath " .. T.q(root .. "/dir/sub")):gsub("\n", "")
  assert(e:realpath() == real)
end)
for e in lf.walk{".", maxdepth = 0} do
  assert(e:realpath() == T.capture("pwd -P"):gsub("\n", ""))
end

-- snapshot([with_stat]): a plain table that outlives the step.
do
  local s1, s2
  with("file", function(e)
    s1 = e:snapshot()
    s2 = e:snapshot(true)
  end)
  assert(getmetatable(s1) == nil)
  assert(s1.name == "file" and s1.path == root .. "/file" and s1.depth == 1 and s1.type == "f")
  assert(s1.visit == "pre" and s1.error == nil and s1.root == 1 and s1.ino > 0)
  assert(s1.size == nil and s1.mtime == nil, "no stat fields without with_stat")
  assert(s2.size == 1234 and s2.mtime == 1000000000 and s2.user == uname and s2.perm == 0x1a0)
end

-- Error entries: fields, and methods returning the entry's error.
for e in lf.walk(root .. "/missing") do
  assert(e.visit == "error" and e.type == "?" and e.name == "missing")
  assert(e.error == root .. "/missing: No such file or directory")
  assert(e.size == nil and e.user == nil)
  for _, m in ipairs{"stat", "open", "readlink", "realpath", "delete"} do
    local ok, msg, errno = e[m](e)
    assert(not ok and msg == e.error and errno == 2, m)
  end
  local s = e:snapshot(true)
  assert(s.error == e.error and s.size == nil)
end

-- delete(): files, links (never followed), empty directories in post-order.
do
  local d = work .. "/del"
  T.sh("mkdir -p " .. T.q(d .. "/x/y") .. " && touch " .. T.q(d .. "/x/y/f") .. " " .. T.q(d .. "/keep") ..
    " && ln -s ../keep " .. T.q(d .. "/x/l") .. " && ln -s " .. T.q(d .. "/keep") .. " " .. T.q(d .. "/x/abs"))
  -- A non-empty directory in pre-order.
  for e in lf.walk{d .. "/x", maxdepth = 0} do
    local ok, msg, errno = e:delete()
    assert(not ok and errno == 39 and msg == e.path .. ": Directory not empty", msg)
  end
  local n = 0
  for e in lf.walk{d .. "/x", order = "post", follow = "always"} do
    assert(e:delete() == true, e.path)
    n = n + 1
  end
  assert(n == 5, n)
  assert(not io.open(d .. "/x"), "deleted")
  assert(T.read(d .. "/keep") == "", "a link's target is never deleted")
  -- Deleting a directory in pre-order prunes it.
  T.sh("mkdir -p " .. T.q(d .. "/e"))
  local seen = 0
  for e in lf.walk(d) do
    seen = seen + 1
    if e.name == "e" then assert(e:delete()) end
  end
  assert(seen == 3 and not io.open(d .. "/e"))
  -- A link to a directory is removed as a link in every follow mode.
  for _, follow in ipairs{"never", "roots", "always"} do
    T.sh("mkdir -p " .. T.q(d .. "/t/sub") .. " && touch " .. T.q(d .. "/t/sub/in") ..
      " && ln -s sub " .. T.q(d .. "/t/lnk"))
    for e in lf.walk{d .. "/t", follow = follow} do
      if e.name == "lnk" then
        assert(e.type == (follow == "always" and "d" or "l"), follow)
        assert(e:delete() == true, follow)
      end
    end
    assert(not T.capture("test -L " .. T.q(d .. "/t/lnk") .. " && echo x"):match("x"), follow)
    assert(T.read(d .. "/t/sub/in") == "", follow .. ": the target is kept")
    T.sh("rm -rf " .. T.q(d .. "/t"))
  end
  local st = select(4, lf.walk(d))
  st:close()
end

-- Owners without a name: user and group are nil, uid and gid stay.
if T.is_root() then
  T.sh("touch " .. T.q(root .. "/orphan") .. " && chown 54321:54321 " .. T.q(root .. "/orphan"))
  with("orphan", function(e)
    assert(e.uid == 54321 and e.gid == 54321 and e.user == nil and e.group == nil)
    local st = e:stat()
    assert(st.user == nil and st.uid == 54321)
  end)
else
  T.skip("entry: nameless owner", "not root, cannot chown")
end

-- Paths longer than PATH_MAX: every method works relative to the fd.
do
  local long = work .. "/long"
  local comp = ("d"):rep(100)
  -- cd -P: a logical cd fails once $PWD passes PATH_MAX; set -e: no endless loop.
  T.sh("timeout 60 sh -ec 'mkdir -p " .. long .. "; cd " .. long ..
    "; i=0; while [ $i -lt 50 ]; do mkdir " .. comp .. "; cd -P " .. comp ..
    "; i=$((i + 1)); done; echo deep > leaf; ln -s leaf lnk'")
  local found = 0
  for e in lf.walk(long) do
    if e.name == "leaf" then
      found = found + 1
      assert(#e.path > 4096 and e.depth == 51 and e.size == 5)
      local f = assert(e:open())
      assert(f:read("a") == "deep\n")
      f:close()
      assert(e:stat().size == 5)
      local rp, msg = e:realpath()
      assert(rp or msg:find("File name too long", 1, true), msg)
    elseif e.name == "lnk" then
      found = found + 1
      assert(e:readlink() == "leaf")
    end
  end
  assert(found == 2)
  for e in lf.walk{long, order = "post"} do assert(e:delete(), e.path) end
end

T.ok("entry")

T.done()
