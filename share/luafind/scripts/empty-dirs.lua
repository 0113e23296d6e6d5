-- empty-dirs: directories that are empty or hold only empty directories
--
-- Decided on the post-order visit, after the directory's contents: the
-- framework knows how many of its entries stay.  No stat at all.
--
-- SPDX-License-Identifier: MIT

local script = require "luafind.script"

local s = script.new{
  apply = "remove them",
  help = [[
Removes empty directories, and the directories that hold nothing but them,
deepest first; the PATHs themselves stay.  A directory that holds an
--exclude'd name is not empty.  With --older-than, a directory's age is its
modification time before anything in it was removed.]],
}

return s:clean{
  empty = function(e)
    return true
  end,
}
