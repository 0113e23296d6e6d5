-- broken-links: symbolic links whose target does not exist
--
-- One stat per link (following it), none for anything else.
--
-- SPDX-License-Identifier: MIT

local script = require "luafind.script"

local s = script.new{
  apply = "remove them",
  help = [[
Removes symbolic links that lead nowhere: the target (or a directory on the
way to it) does not exist, or the link is part of a loop.  Each is printed
with its target.  A link whose target cannot be checked (a directory without
search permission on the way) is kept.]],
}

local errno = require("luafind").errno
local ENOENT, ENOTDIR, ELOOP = errno.ENOENT, errno.ENOTDIR, errno.ELOOP

return s:clean{
  select = function(e)
    if e.type ~= "l" then return false end
    local ok, _, errno = e:stat(true)        -- follow the link
    return not ok and (errno == ENOENT or errno == ENOTDIR or errno == ELOOP)
  end,
  describe = function(e)
    return "-> " .. (e:readlink() or "?")
  end,
}
