# lua.cmake: the Lua side of luafind, included from the top-level
# CMakeLists.txt.
#
#   lf_lua         OBJECT  the binding: luafind.c walk.c entry.c regex.c
#                          find.c (luafind.find, over the front end lf_find)
#                          sandbox.c (lf_sandbox_new: the limits),
#                          sandbox_env.c (the globals it shows),
#                          sandbox_object.c (luafind.sandbox),
#                          sandbox_lib.c and pattern_cost.c (its bounded
#                          library functions) with
#                          init.lua embedded (cmake/embed.cmake)
#   luafind_core   MODULE  lib/luafind/core.so for stock lua5.4, never linked
#                          against liblua, exporting luaopen_luafind_core only
#                          (the binding + lf_find + lf_core)
#   lf_lua_cli     STATIC  lfcli.c, lfplan.c (-lua in C), lualex.c + the binding,
#                          for the luafind executable
#                          (the only Lua-side target that links liblua)
#
# Tests: lua.* run tests/lua/*.lua with stock lua5.4 against the build tree
# and through a small C host using lfcli.h; embed.* install into a scratch
# prefix and build host programs against it.

# Where the Lua module goes, relative to the prefix.  Under /usr, Debian's
# own directories from the lua5.4 pkg-config variables; under any other
# prefix, the directories stock lua5.4 searches there by default.
string(REGEX MATCH "^[0-9]+\\.[0-9]+" LUAFIND_LUA_MAJOR "${LUA_VERSION}")
if(NOT LUAFIND_LUA_MAJOR)
  set(LUAFIND_LUA_MAJOR 5.4)
endif()
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  pkg_get_variable(_lf_cmod ${LUA_MODULE_NAME} INSTALL_CMOD)
  pkg_get_variable(_lf_lmod ${LUA_MODULE_NAME} INSTALL_LMOD)
endif()
if(_lf_cmod AND _lf_lmod)
  file(RELATIVE_PATH _lf_cmod_rel /usr ${_lf_cmod})
  file(RELATIVE_PATH _lf_lmod_rel /usr ${_lf_lmod})
else()
  set(_lf_cmod_rel lib/lua/${LUAFIND_LUA_MAJOR})
  set(_lf_lmod_rel share/lua/${LUAFIND_LUA_MAJOR})
endif()
set(LUAFIND_INSTALL_CMODDIR ${_lf_cmod_rel} CACHE STRING
  "Where luafind/core.so is installed, relative to the prefix")
set(LUAFIND_INSTALL_LMODDIR ${_lf_lmod_rel} CACHE STRING
  "Where luafind/init.lua is installed, relative to the prefix")

# lua/luafind/init.lua as bytes, for the sandbox (sandbox_env.c), which
# loads it without a path.
add_custom_command(
  OUTPUT ${PROJECT_BINARY_DIR}/generated/lf_init_lua.c
  COMMAND ${CMAKE_COMMAND} -DIN=${PROJECT_SOURCE_DIR}/lua/luafind/init.lua
          -DOUT=${PROJECT_BINARY_DIR}/generated/lf_init_lua.c -DNAME=lfb_init_lua
          -P ${PROJECT_SOURCE_DIR}/cmake/embed.cmake
  DEPENDS ${PROJECT_SOURCE_DIR}/lua/luafind/init.lua ${PROJECT_SOURCE_DIR}/cmake/embed.cmake
  COMMENT "Embedding lua/luafind/init.lua"
  VERBATIM)

# The binding, compiled once for the module, the CLI and libluafind.
add_library(lf_lua OBJECT
  src/lua/luafind.c
  src/lua/walk.c
  src/lua/entry.c
  src/lua/find.c
  src/lua/error.c
  src/lua/regex.c
  src/lua/json.c
  src/lua/sandbox.c
  src/lua/sandbox_env.c
  src/lua/sandbox_object.c
  src/lua/errno.c
  src/lua/sandbox_lib.c
  src/lua/pattern_cost.c
  ${PROJECT_BINARY_DIR}/generated/lf_init_lua.c)
target_include_directories(lf_lua PRIVATE ${LUA_INCLUDE_DIRS})   # headers only
target_link_libraries(lf_lua PRIVATE lf_core lf_find)
set_target_properties(lf_lua PROPERTIES
  POSITION_INDEPENDENT_CODE ON C_EXTENSIONS ON C_VISIBILITY_PRESET hidden)

# require "luafind.core" in stock lua5.4: lib/luafind/core.so.
add_library(luafind_core MODULE $<TARGET_OBJECTS:lf_lua>)
target_link_libraries(luafind_core PRIVATE lf_find lf_core)   # never liblua
target_link_options(luafind_core PRIVATE
  -Wl,--version-script=${CMAKE_CURRENT_LIST_DIR}/module.map)
set_target_properties(luafind_core PROPERTIES
  PREFIX "" OUTPUT_NAME core
  LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib/luafind
  LINK_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/module.map)

# What the luafind executable links: lfcli.h, the binding, liblua.
add_library(lf_lua_cli STATIC src/lua/lfcli.c src/lua/lfplan.c src/lua/lualex.c $<TARGET_OBJECTS:lf_lua>)
target_include_directories(lf_lua_cli PUBLIC src/lua)
target_link_libraries(lf_lua_cli PUBLIC lf_find lf_core PkgConfig::LUA)
# The installed luafind/*.lua relative to the installed executable's
# directory (../share/lua/5.4), so that a moved or DESTDIR-staged prefix
# works; the configured prefix's directory comes after it.
file(RELATIVE_PATH LUAFIND_REL_LUADIR ${CMAKE_INSTALL_FULL_BINDIR}
  ${CMAKE_INSTALL_PREFIX}/${LUAFIND_INSTALL_LMODDIR})
target_compile_definitions(lf_lua_cli PRIVATE
  LUAFIND_BUILD_BINDIR="${PROJECT_BINARY_DIR}"
  LUAFIND_BUILD_LUADIR="${PROJECT_SOURCE_DIR}/lua"
  LUAFIND_REL_LUADIR="${LUAFIND_REL_LUADIR}"
  LUAFIND_INSTALL_LUADIR="${CMAKE_INSTALL_PREFIX}/${LUAFIND_INSTALL_LMODDIR}")
set_target_properties(lf_lua_cli PROPERTIES C_EXTENSIONS ON)

if(LUAFIND_TESTING)
  # Stock lua5.4 (Debian package lua5.4) runs the module tests; without it
  # they run through the C hosts only.
  find_program(LUAFIND_LUA54 NAMES lua5.4 lua54)
  if(NOT LUAFIND_LUA54)
    message(STATUS "lua5.4 not found: the lua.* tests run through the C hosts only")
  endif()
  set(_lf_tests ${PROJECT_SOURCE_DIR}/tests/lua)
  # Each test makes its scratch directory here and removes it when it
  # passes (T.done in tests/lua/helper.lua); a test with a skipped check
  # (T.skip) exits 77, reported as skipped.
  set(_lf_work ${PROJECT_BINARY_DIR}/tests/lua-work)

  # Stock lua5.4 loading an instrumented core.so needs the ASan runtime first.
  set(_lf_env)
  if(LUAFIND_SANITIZE)
    execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
      OUTPUT_VARIABLE _lf_asan OUTPUT_STRIP_TRAILING_WHITESPACE)
    list(APPEND _lf_env LD_PRELOAD=${_lf_asan} ASAN_OPTIONS=detect_leaks=0)
    set(LUAFIND_PRELOAD_ASAN ${_lf_asan})
  endif()

  # A host using lfcli.h as the executable does: -lua and --script.
  add_executable(lf_lua_host tests/lua/host.c)
  target_link_libraries(lf_lua_host PRIVATE lf_lua_cli)
  set_target_properties(lf_lua_host PROPERTIES C_EXTENSIONS ON)

  # getdents64 with every d_type erased, to test DT_UNKNOWN (LD_PRELOAD).
  add_library(lf_dtunknown MODULE tests/lua/dtunknown.c)
  target_link_libraries(lf_dtunknown PRIVATE ${CMAKE_DL_LIBS})
  set_target_properties(lf_dtunknown PROPERTIES C_EXTENSIONS ON PREFIX "")

  set(LUAFIND_LUA_TESTS module walk entry regex counters pred find sandbox json threads)
  foreach(t ${LUAFIND_LUA_TESTS})
    if(LUAFIND_LUA54)
      add_test(NAME lua.${t}
        COMMAND ${LUAFIND_LUA54} ${_lf_tests}/${t}.lua ${_lf_work}/${t})
      set_tests_properties(lua.${t} PROPERTIES ENVIRONMENT
        "LUA_PATH=${PROJECT_SOURCE_DIR}/lua/?/init.lua;LUA_CPATH=${PROJECT_BINARY_DIR}/lib/?.so;LUAFIND_TEST_HOST=$<TARGET_FILE:lf_lua_host>;LUAFIND_TEST_DTUNKNOWN=$<TARGET_FILE:lf_dtunknown>;LUAFIND_TEST_PRELOAD=${LUAFIND_PRELOAD_ASAN};${_lf_env}")
    endif()
    # The same scripts through the C host's lf_lua_run_script().
    add_test(NAME lua.host.${t}
      COMMAND $<TARGET_FILE:lf_lua_host> --script ${_lf_tests}/${t}.lua ${_lf_work}/host.${t})
    set_tests_properties(lua.host.${t} PROPERTIES ENVIRONMENT
      "LUAFIND_TEST_HOST=$<TARGET_FILE:lf_lua_host>;LUAFIND_TEST_DTUNKNOWN=$<TARGET_FILE:lf_dtunknown>;LUAFIND_TEST_PRELOAD=${LUAFIND_PRELOAD_ASAN}")
  endforeach()

  # The same scripts through `luafind --script`, once the CLI links lfcli.
  # (-lua checks in pred.lua and counters.lua use the test host, whose
  # messages they know.)
  if(TARGET luafind)
    foreach(t ${LUAFIND_LUA_TESTS})
      add_test(NAME lua.script.${t}
        COMMAND $<TARGET_FILE:luafind> --script ${_lf_tests}/${t}.lua ${_lf_work}/script.${t})
      set_tests_properties(lua.script.${t} PROPERTIES ENVIRONMENT
        "LUAFIND_TEST_HOST=$<TARGET_FILE:lf_lua_host>;LUAFIND_TEST_DTUNKNOWN=$<TARGET_FILE:lf_dtunknown>;LUAFIND_TEST_PRELOAD=${LUAFIND_PRELOAD_ASAN}")
    endforeach()
  endif()

  add_test(NAME lua.symbols
    COMMAND sh ${_lf_tests}/symbols.sh $<TARGET_FILE:luafind_core>)

  foreach(t ${LUAFIND_LUA_TESTS})
    foreach(mode lua lua.host lua.script)
      if(TEST ${mode}.${t})
        set_tests_properties(${mode}.${t} PROPERTIES SKIP_RETURN_CODE 77)
      endif()
    endforeach()
  endforeach()
endif()

# Embedding: install into a scratch prefix, then build hosts against it
# (the shared libraries and the static ones: not without LUAFIND_SHARED).
if(LUAFIND_TESTING AND LUAFIND_SHARED)
  set(_lf_embed_work ${PROJECT_BINARY_DIR}/tests/embed-work)
  set(_lf_embed_cflags "")
  if(LUAFIND_SANITIZE)
    set(_lf_embed_cflags "-fsanitize=address,undefined -fno-omit-frame-pointer")
  elseif(LUAFIND_TSAN)
    set(_lf_embed_cflags "-fsanitize=thread")
  endif()
  set(_lf_steps install pkgconf cmake core subdir symbols headers query records bridge threads relocate)
  if(LUAFIND_LUA54)
    list(APPEND _lf_steps stock)
  endif()
  # The prefix and the hosts' builds go when every step passed.
  list(APPEND _lf_steps cleanup)
  foreach(step ${_lf_steps})
    add_test(NAME embed.${step}
      COMMAND sh ${PROJECT_SOURCE_DIR}/tests/embed/run.sh ${step} ${PROJECT_BINARY_DIR}
              ${_lf_embed_work} ${PROJECT_SOURCE_DIR} ${CMAKE_INSTALL_LIBDIR}
              ${LUAFIND_INSTALL_CMODDIR} ${LUAFIND_INSTALL_LMODDIR} ${LUAFIND_LUA54}
              "${_lf_embed_cflags}")
    set_tests_properties(embed.${step} PROPERTIES TIMEOUT 120
      ENVIRONMENT "LUAFIND_TEST_PRELOAD=${LUAFIND_PRELOAD_ASAN}")
    if(step STREQUAL "install")
      # The lock too: docs.readme installs the same build (luafind.pc is
      # written into the build tree for each install).
      set_tests_properties(embed.${step} PROPERTIES FIXTURES_SETUP lf_embed RESOURCE_LOCK lf_embed)
    elseif(step STREQUAL "cleanup")
      set_tests_properties(embed.${step} PROPERTIES FIXTURES_CLEANUP lf_embed)
    elseif(step STREQUAL "subdir")
      # Its own build of the sources, under WORK: no lock, but before cleanup.
      set_tests_properties(embed.${step} PROPERTIES FIXTURES_REQUIRED lf_embed TIMEOUT 300)
    else()
      set_tests_properties(embed.${step} PROPERTIES FIXTURES_REQUIRED lf_embed RESOURCE_LOCK lf_embed)
    endif()
  endforeach()
endif()
