# scripts.cmake: tests of the bundled cleanup scripts, their framework and
# runner, and lf.remove_tree (issue 6), included from tests/CMakeLists.txt.
#
#   scripts.<name>     sh tests/scripts/<name>.sh LUAFIND WORKDIR
#   scripts.chain      du and build-artifacts over the shared 100,000-level chain,
#                      in memory and time linear in the depth
#   scripts.remove_tree[_nodac]  luafind --script remove_tree.lua WORKDIR
#
# Each builds its trees in work/scripts_<name> under the build tree and
# removes them when it passes.  scripts.failures and scripts.remove_tree_nodac
# drop CAP_DAC_OVERRIDE with capsh when run as root (status 77, skipped,
# where that is not possible; a failure when CI is set), scripts.editor-junk
# needs strace, scripts.gitignore git (the same), and scripts.recent-big
# both git and capsh.

set(_lf_scripts_dir ${CMAKE_CURRENT_SOURCE_DIR}/scripts)
set(_lf_scripts_work ${CMAKE_CURRENT_BINARY_DIR}/work)

foreach(name runner editor-junk build-artifacts empty-dirs broken-links old-files
             big-files duplicates du failures gitignore recent-big)
  add_test(NAME scripts.${name}
    COMMAND sh ${_lf_scripts_dir}/${name}.sh $<TARGET_FILE:luafind> ${_lf_scripts_work}/scripts_${name})
  set_tests_properties(scripts.${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60)
endforeach()

# du and build-artifacts over the shared 100,000-level chain
# (tests/CMakeLists.txt): memory and time linear in the depth.
add_test(NAME scripts.chain
  COMMAND sh ${_lf_scripts_dir}/chain.sh $<TARGET_FILE:luafind> ${_lf_scripts_work}/scripts_chain)
set_tests_properties(scripts.chain PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
  FIXTURES_REQUIRED chain ENVIRONMENT LUAFIND_TEST_CHAIN=${CHAIN})

add_test(NAME scripts.remove_tree
  COMMAND $<TARGET_FILE:luafind> --script ${_lf_scripts_dir}/remove_tree.lua
          ${_lf_scripts_work}/scripts_remove_tree)
add_test(NAME scripts.remove_tree_nodac
  COMMAND sh ${_lf_scripts_dir}/nodac.sh
          $<TARGET_FILE:luafind> --script ${_lf_scripts_dir}/remove_tree.lua
          ${_lf_scripts_work}/scripts_remove_tree nodac)
set_tests_properties(scripts.remove_tree scripts.remove_tree_nodac PROPERTIES
  SKIP_RETURN_CODE 77 TIMEOUT 60 RESOURCE_LOCK scripts_remove_tree)
