-- old-files: files not modified for --older-than (default 30 days), e.g. in temp directories
--
-- The framework's --older-than does the work: one stat per file.
--
-- SPDX-License-Identifier: MIT

local script = require "luafind.script"

local s = script.new{
  apply = "remove them",
  older_than = "30d",
  help = [[
Removes regular files and symbolic links whose modification time is older
than --older-than (the link's own time, not its target's).  Directories stay:
follow with empty-dirs to remove the ones left empty.  Ages are measured
from the start of the run.]],
}

return s:clean{
  select = function(e)
    return e.type == "f" or e.type == "l"
  end,
}
