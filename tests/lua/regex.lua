-- regex.lua: luafind.regex (PCRE2) and luafind.glob (fnmatch): results
-- compared with string.find/match/gmatch and with fnmatch's own answers,
-- flags, captures, init offsets, invalid UTF-8, NUL bytes, errors, caching.

local T = dofile((arg[0]:match("^(.*)/") or ".") .. "/helper.lua")
local lf = T.lf

local function pack(...) return {n = select("#", ...), ...} end
local function same(a, b, what)
  assert(a.n == b.n, ("%s: %d values, expected %d"):format(what, a.n, b.n))
  for i = 1, a.n do
    assert(a[i] == b[i], ("%s: value %d is %s, expected %s"):format(what, i, tostring(a[i]), tostring(b[i])))
  end
end

-- Patterns with the same meaning in PCRE2 and in Lua.
local pairs_ = {
  {[[\.c$]], "%.c$"},
  {[[^(\w+)\.(\w+)$]], "^(%w+)%.(%w+)$"},
  {[[a*]], "a*"},
  {[[(a)(b?)]], "(a)(b?)"},
  {[[\d+]], "%d+"},
  {[[x]], "x"},
  {[[]], ""},
  {[[[^/]+$]], "[^/]+$"},
}
local subjects = {"main.c", "foo.tar.gz", "baaac", "ab a", "x1y22z333", "", "a/b/c.c", "no match here"}
for _, p in ipairs(pairs_) do
  local re = lf.regex(p[1])
  for _, s in ipairs(subjects) do
    local what = p[1] .. " on " .. s
    same(pack(re:match(s)), pack(s:match(p[2])), "match " .. what)
    same(pack(re:find(s)), pack(s:find(p[2])), "find " .. what)
    -- With an init, Lua's ^ anchors there; PCRE2's ^ is the subject's
    -- start (\G anchors at init), so anchored patterns are compared at 1.
    -- math.mininteger and maxinteger: clamped as string.find clamps them.
    local far = {math.mininteger, math.mininteger + 1, math.maxinteger}
    for _, init in ipairs(p[2]:sub(1, 1) == "^" and {1, -100, 0, far[1], far[2]}
                          or {2, -2, #s + 1, #s + 2, -100, 0, far[1], far[2], far[3]}) do
      same(pack(re:match(s, init)), pack(s:match(p[2], init)), ("match %s init %d"):format(what, init))
      same(pack(re:find(s, init)), pack(s:find(p[2], init)), ("find %s init %d"):format(what, init))
    end
    local a, b = {}, {}
    for x, y in re:gmatch(s) do a[#a + 1] = tostring(x) .. "|" .. tostring(y) end
    for x, y in s:gmatch(p[2]) do b[#b + 1] = tostring(x) .. "|" .. tostring(y) end
    -- Lua's gmatch takes a leading ^ literally; PCRE2 anchors.
    if p[2]:sub(1, 1) ~= "^" then T.same(a, b, "gmatch " .. what) end
    assert(re:test(s) == (s:find(p[2]) ~= nil), "test " .. what)
  end
end

-- gmatch with init, and iterators that interleave on one regex.
do
  local re = lf.regex("\\w+")
  local t = {}
  for w in re:gmatch("one two three", 5) do t[#t + 1] = w end
  T.same(t, {"two", "three"}, "gmatch init")
  local it1, it2 = re:gmatch("a b"), re:gmatch("c d")
  assert(it1() == "a" and it2() == "c" and it1() == "b" and it2() == "d" and it1() == nil and it2() == nil)
end

-- An init below -#s is 1, as in string.find (no overflow negating
-- math.mininteger); gmatch and test take it the same way.
do
  local re = lf.regex("\\w+")
  local t = {}
  for w in re:gmatch("one two", math.mininteger) do t[#t + 1] = w end
  T.same(t, {"one", "two"}, "gmatch math.mininteger")
  assert(re:test("one", math.mininteger) and not re:test("one", math.maxinteger))
  same(pack(re:find("one", math.mininteger)), pack(1, 3), "find math.mininteger")
end

-- A match error (PCRE2's match limit) raises: it is not "no match".
do
  local re = lf.regex("(?:.*/(a+)+c|.*)")
  local s = "d/" .. ("a"):rep(40) .. "b"
  for _, f in ipairs{"match", "find", "test"} do
    T.raises("luafind.regex: match limit exceeded", re[f], re, s)
  end
  T.raises("luafind.regex: match limit exceeded", function() for _ in re:gmatch(s) do end end)
end

-- ^ is the subject's start even with an init; \G is the init.
assert(lf.regex("^b"):find("ab", 2) == nil and lf.regex("\\Gb"):find("ab", 2) == 2)
assert(lf.regex("(?<=a)b"):find("ab", 2) == 2, "lookbehind sees before init")

-- A group that does not take part is false.
same(pack(lf.regex("(a)|(b)"):match("b")), pack(false, "b"), "unset group")
same(pack(lf.regex("(a)|(b)"):find("xb")), pack(2, 2, false, "b"), "find unset group")

-- Flags.
assert(lf.regex("ABC", "i"):test("xabcx") and not lf.regex("ABC"):test("abc"))
assert(lf.regex("a b # comment", "x"):match("ab") == "ab")
assert(lf.regex("a.b", "s"):test("a\nb") and not lf.regex("a.b"):test("a\nb"))
assert(lf.regex("^b$", "m"):test("a\nb\nc") and not lf.regex("^b$"):test("a\nb\nc"))
assert(lf.regex("ABC", "ix"):test("abc"))
T.raises("invalid flag 'q' (expected some of \"ixsmu\")", lf.regex, "a", "q")
T.raises("bad argument #1", lf.regex)
T.raises("bad argument #2", lf.regex, "a", {})

-- Bytes, invalid UTF-8, NUL.
do
  local bad = "caf\xff.txt"
  assert(lf.regex("caf.\\.txt"):match(bad) == bad, "byte mode: . matches \\xff")
  assert(lf.regex("\\xff"):find(bad) == 4)
  assert(lf.regex("caf.\\.txt", "u"):match(bad) == nil, "UTF mode: an invalid byte never matches")
  assert(lf.regex("\\.txt$", "u"):test(bad), "UTF mode still matches around invalid bytes")
  local cafe = "caf\xc3\xa9"
  assert(lf.regex("^caf.$", "u"):match(cafe) == cafe, "UTF mode: . is one character")
  assert(lf.regex("^caf.$"):match(cafe) == nil, "byte mode: . is one byte")
  assert(lf.regex("^caf..$"):match(cafe) == cafe)
  assert(lf.regex("\\w+", "u"):match("\xc3\xa9t\xc3\xa9") == "\xc3\xa9t\xc3\xa9", "u implies UCP")
  local t = {}
  for w in lf.regex(".", "u"):gmatch("a\xffb") do t[#t + 1] = w end
  T.same(t, {"a", "b"}, "gmatch over invalid UTF-8")
  assert(lf.regex("a\0b"):find("xa\0b") == 2, "NUL in pattern and subject")
  assert(lf.regex("b"):match("a\0b") == "b")
end

-- Bad patterns name PCRE2's message and the offset.
T.raises("luafind.regex: missing closing parenthesis at offset 4", lf.regex, "(abc")
T.raises("luafind.regex: quantifier does not follow a repeatable item at offset 0", lf.regex, "*a")
T.raises("at offset", lf.regex, "[z-a]")
T.raises("luafind.regex: ", lf.regex, "\\")
T.raises("luafind.regex: UTF-8 error: illegal byte (0xfe or 0xff) at offset 1", lf.regex, "a\xff", "u")
assert(lf.regex("a\xff"):test("a\xff"), "without u, any byte")

-- The locale: lf.regex is bytes under every LC_ALL (say "u" for
-- characters), while lf.find's -regex follows it, as the command line's.
do
  local work = T.workdir()
  T.sh("mkdir -p " .. T.q(work .. "/t"))
  T.write(work .. "/t/caf\xc3\xa9", "")
  local code = ([[
    local lf = require "luafind"
    local find = lf.find or lf.core.find
    local n, m = 0, 0
    for _ in find(%q, "-regex", ".*/caf.") do n = n + 1 end
    for _ in find(%q, "-regextype", "pcre2", "-regex", ".*/caf.") do m = m + 1 end
    print(lf.regex("^caf.$"):test("caf\xc3\xa9"), lf.regex("^caf.$", "u"):test("caf\xc3\xa9"), n, m)
  ]]):format(work .. "/t", work .. "/t")
  local c = T.run_lua(work, code, "LC_ALL=C")
  assert(c == "false\ttrue\t0\t0\n", c)
  local utf8 = T.run_lua(work, code, "LC_ALL=C.UTF-8")
  assert(utf8 == "false\ttrue\t1\t1\n", utf8)
  T.ok("regex: lf.regex is bytes in every locale, lf.find's -regex follows it")
end

-- Methods check their object.
do
  local re = lf.regex("a")
  T.raises("luafind.Regex expected", re.match, {}, "a")
  T.raises("bad argument #2", re.match, re)
  T.raises("bad argument #3", re.find, re, "a", "x")
end

-- One compiled object per pattern and flags.
assert(lf.regex("x") == lf.regex("x"))
assert(lf.regex("x", "i") ~= lf.regex("x"))
assert(lf.regex("x", "i") == lf.regex("x", "i"))
assert(lf.glob("*.c") == lf.glob("*.c") and lf.glob("*.c", "i") ~= lf.glob("*.c"))

-- glob: find -name semantics.
local function g(p, s, f) return lf.glob(p, f):match(s) end
assert(g("*.c", "main.c") and not g("*.c", "main.h") and not g("*.c", "main.c.o"))
assert(g("*.c", ".hidden.c"), "* matches a leading dot, as in find -name")
assert(not g("*.c", ".hidden.c", "."), "flag '.' is FNM_PERIOD")
assert(g("?ain.c", "main.c") and g("[mn]ain.[ch]", "nain.h") and not g("[!m]ain.c", "main.c"))
assert(g("Makefile", "Makefile") and not g("Makefile", "makefile"))
assert(g("MAKE*", "makefile", "i") and g("*.C", "x.c", "i"), "flag 'i' is FNM_CASEFOLD")
assert(g("a*b", "a/b") and not g("a*b", "a/b", "p"), "flag 'p' is FNM_PATHNAME")
assert(g("\\*", "*") and not g("\\*", "x"), "backslash escapes")
assert(g("\\*", "\\*", "e") and not g("\\*", "*", "e"), "flag 'e' is FNM_NOESCAPE")
assert(g("*", "") and g("*", "anything") and g("", "") and not g("", "x"))
assert(g("core*", "core.123") and not g("core*", "xcore"))
assert(g("caf*", "caf\xff") and g("*\xff*", "caf\xff.txt"), "bytes")
T.raises("invalid flag 'z'", lf.glob, "*", "z")
T.raises("pattern contains a NUL byte", lf.glob, "a\0b")
T.raises("luafind.Glob expected", lf.glob("*").match, {}, "x")

-- The fast paths agree with fnmatch: "*.c" (suffix) against "*.[c]" (fnmatch).
do
  local names = {"a.c", ".c", "c", "", "x.cc", "a.c.c", "A.C", "*.c", "a\0.c", "dir/x.c", ".x.c"}
  local equiv = {
    {"*.c", "*.[c]"}, {"Make*", "Mak[e]*"}, {"exact", "exac[t]"}, {"*", "*[!/]*"},
  }
  for _, p in ipairs(equiv) do
    for _, n in ipairs(names) do
      if p[1] ~= "*" or n ~= "" then
        assert(g(p[1], n) == g(p[2], n), ("%s vs %s on %q"):format(p[1], p[2], n))
      end
    end
  end
end

-- The same answers as find -name on a tree of odd names.
do
  local work = T.workdir()
  local names = {"main.c", ".hidden.c", "x.h", "star*", "q?mark", "[bracket]", "back\\slash",
                 "bad\xffutf8.c", "caf\xc3\xa9", "-rf", "new\nline.c", "UPPER.C"}
  for _, n in ipairs(names) do T.write(work .. "/" .. n, "") end
  local patterns = {"*.c", "*.C", "*", "?????", "[bq]*", "*\\**", "\\[*", "*\\\\*", "*[!a-z.]*", "*.?"}
  for _, p in ipairs(patterns) do
    for _, icase in ipairs{false, true} do
      local out = T.capture("cd " .. T.q(work) .. " && LC_ALL=C find . -mindepth 1 " ..
        (icase and "-iname " or "-name ") .. T.q(p) .. " -print0")
      local want = {}
      for n in out:gmatch("%./([^%z]*)%z") do want[#want + 1] = n end
      local got = {}
      local gl = lf.glob(p, icase and "i" or nil)
      for e in lf.walk{work, mindepth = 1} do
        if gl:match(e.name) then got[#got + 1] = e.name end
      end
      T.same(T.sorted(got), T.sorted(want), (icase and "-iname " or "-name ") .. p)
    end
  end
end

T.ok("regex")

T.done()
