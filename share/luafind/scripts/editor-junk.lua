-- editor-junk: editor backups, swap and lock files, .DS_Store, Thumbs.db
--
-- Decides by name alone: nothing is stat'ed but the files it selects (for
-- the byte count of the summary).
--
-- SPDX-License-Identifier: MIT

local script = require "luafind.script"

local s = script.new{
  apply = "remove them",
  help = [[
Removes what editors and file managers leave behind: backups (*~), Vim swap
files (.*.swp, .*.swo), Emacs lock and autosave files (.#*, #*#), macOS's
.DS_Store and Windows's Thumbs.db.  Directories are never selected.]],
}

local junk = script.matcher{"*~", ".*.swp", ".*.swo", ".#*", "#*#", ".DS_Store", "Thumbs.db"}

return s:clean{
  select = function(e)
    return e.type ~= "d" and junk(e.name)
  end,
}
