# libraries.cmake: the libraries a host links, included from the top-level
# CMakeLists.txt after src/lua/lua.cmake, whether luafind is the project
# being built or a host's add_subdirectory() (install.cmake installs them
# only in the first case).
#
#   luafind_core_shared  libluafind-core.so  the walk and find's language
#                        (lf_core + lf_find objects), no Lua, exporting the
#                        functions of walk.h, stat.h, mem.h, isolate.h,
#                        query.h and error.h alone           luafind::core
#   luafind_core_static  libluafind-core.a   the same        luafind::core_static
#   luafind_shared       libluafind.so       the same + the Lua binding
#                        (luafind.h: luaopen_luafind_core, the bridge, the
#                        sandbox), calling the host's Lua, never linked
#                        against liblua (only with LUAFIND_WITH_LUA)
#                                                            luafind::lua
#   luafind_static       libluafind.a        the same        luafind::lua_static
#
# (luafind_core, without _shared, is lua.cmake's Lua module, core.so.)
# luafind::lua holds all of luafind::core: a host links one of the two.
#
# With -DLUAFIND_SHARED=OFF only the static libraries are built and
# installed, and luafind::core and luafind::lua name them (the Debian
# package does so until 1.0: debian/README.source says why).
# The names in the last column are the installed package's
# (luafindConfig.cmake) and, as ALIAS targets, the build tree's, beside the
# older luafind::luafind and luafind::luafind_static (the Lua ones).
#
# The public headers are the libraries' HEADERS file set: include/luafind,
# <luafind/walk.h> for the targets' users here, installed by
# install(TARGETS ... FILE_SET HEADERS).

# The functions each shared library exports (its version script, written
# from cmake/exports.map.in), one list a layer: every function the headers
# declare, no more (embed.symbols checks both libraries against their
# headers).
set(LUAFIND_CORE_API
  lf_walk_open lf_walk_next lf_walk_prune lf_walk_cancel lf_walk_close
  lf_walk_queue_new lf_walk_queue_free
  lf_walk_counters lf_walk_had_error lf_walk_will_read lf_walk_root lf_walk_dirs_left
  lf_entry_name lf_entry_stat lf_entry_stat_cached lf_entry_delete
  lf_type_from_mode lf_stat_at lf_stat_fd
  lf_isolate_start lf_isolate_output lf_isolate_finish lf_isolate_describe)
set(LUAFIND_FIND_API
  lf_ctx_new lf_ctx_free lf_ctx_set_progname lf_ctx_set_reporter lf_report_stderr
  lf_ctx_errors lf_ctx_clear_errors
  lf_query_compile lf_query_compile_allow lf_query_walk_opts lf_query_eval
  lf_query_done lf_query_run lf_query_finish lf_query_free
  lf_query_eval_record lf_query_record_pruned lf_query_record_counters)
set(LUAFIND_LUA_API
  luaopen_luafind_core lf_lua_push_entry lf_lua_walk_done
  lf_sandbox_new lf_sandbox_reset lf_sandbox_pcall lf_sandbox_error_kind
  lf_sandbox_error_message)

set(_lf_inc ${PROJECT_SOURCE_DIR}/include/luafind)
set(LUAFIND_CORE_HEADERS
  ${_lf_inc}/walk.h ${_lf_inc}/mem.h ${_lf_inc}/stat.h ${_lf_inc}/isolate.h
  ${_lf_inc}/query.h ${_lf_inc}/error.h)
set(LUAFIND_LUA_HEADERS ${LUAFIND_CORE_HEADERS} ${_lf_inc}/luafind.h)

# lf_luafind_libs(PREFIX ALIAS OUTPUT_NAME HEADERS API OBJECTS...): the
# shared and the static library of one layer, PREFIX_shared and
# PREFIX_static, with their file set, version script and aliases.
function(lf_luafind_libs prefix alias output headers api)
  set(map ${PROJECT_BINARY_DIR}/lib${output}.map)
  list(JOIN api ";\n\t\t" LF_MAP_SYMBOLS)
  set(LF_MAP_LIBRARY lib${output}.so)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/exports.map.in ${map} @ONLY)

  set(kinds static)
  if(LUAFIND_SHARED)
    add_library(${prefix}_shared SHARED ${ARGN})
    list(APPEND kinds shared)
  endif()
  add_library(${prefix}_static STATIC ${ARGN})
  foreach(kind ${kinds})
    set(t ${prefix}_${kind})
    target_sources(${t} PUBLIC FILE_SET HEADERS
      BASE_DIRS ${PROJECT_SOURCE_DIR}/include FILES ${headers})
    set_target_properties(${t} PROPERTIES
      OUTPUT_NAME ${output}
      ARCHIVE_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib
      LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib)
  endforeach()
  set_target_properties(${prefix}_static PROPERTIES EXPORT_NAME ${alias}_static)
  add_library(luafind::${alias}_static ALIAS ${prefix}_static)
  if(LUAFIND_SHARED)
    target_link_options(${prefix}_shared PRIVATE -Wl,--version-script=${map})
    set_target_properties(${prefix}_shared PROPERTIES
      EXPORT_NAME ${alias}
      VERSION ${PROJECT_VERSION}
      SOVERSION ${PROJECT_VERSION_MAJOR}
      LINK_DEPENDS ${map})
    add_library(luafind::${alias} ALIAS ${prefix}_shared)
  else()
    add_library(luafind::${alias} ALIAS ${prefix}_static)
  endif()

  # What the code inside needs: hidden in the shared library, named to the
  # static one's users (as luafind::pcre2... once installed; see
  # luafindConfig.cmake.in).
  target_link_libraries(${prefix}_static INTERFACE Threads::Threads)
  foreach(dep ${LUAFIND_DEPS})
    string(TOUPPER ${dep} var)
    target_link_libraries(${prefix}_static INTERFACE
      $<BUILD_INTERFACE:PkgConfig::${var}> $<INSTALL_INTERFACE:luafind::${dep}>)
  endforeach()
  if(LUAFIND_SHARED)
    target_link_libraries(${prefix}_shared PRIVATE Threads::Threads)
    foreach(dep ${LUAFIND_DEPS})
      string(TOUPPER ${dep} var)
      target_link_libraries(${prefix}_shared PRIVATE PkgConfig::${var})
    endforeach()
  endif()
endfunction()

# PCRE2 (src/core/regex.c), libacl and libcap (-acl, -capable and the "ca"
# color: src/find/fsattr.c), liburing (the I/O queue's stats, ring.c) and
# libseccomp (lf_isolate_start's filter, isolate.c) when built with them.
set(LUAFIND_DEPS pcre2 acl cap)
if(LUAFIND_IO_URING)
  list(APPEND LUAFIND_DEPS uring)
endif()
if(LUAFIND_SECCOMP)
  list(APPEND LUAFIND_DEPS seccomp)
endif()

lf_luafind_libs(luafind_core core luafind-core "${LUAFIND_CORE_HEADERS}"
  "${LUAFIND_CORE_API};${LUAFIND_FIND_API}"
  $<TARGET_OBJECTS:lf_core> $<TARGET_OBJECTS:lf_find>)

if(TARGET lf_lua)
  lf_luafind_libs(luafind lua luafind "${LUAFIND_LUA_HEADERS}"
    "${LUAFIND_CORE_API};${LUAFIND_FIND_API};${LUAFIND_LUA_API}"
    $<TARGET_OBJECTS:lf_core> $<TARGET_OBJECTS:lf_find> $<TARGET_OBJECTS:lf_lua>)
  # The host provides Lua: libluafind calls it but never links it.
  set(_lf_lua_libs luafind_static)
  if(LUAFIND_SHARED)
    list(APPEND _lf_lua_libs luafind_shared)
  endif()
  foreach(t ${_lf_lua_libs})
    target_link_libraries(${t} INTERFACE
      $<BUILD_INTERFACE:PkgConfig::LUA> $<INSTALL_INTERFACE:luafind::lua54>)
  endforeach()
  # The names of luafind 0.1.0's package.
  if(LUAFIND_SHARED)
    add_library(luafind::luafind ALIAS luafind_shared)
  else()
    add_library(luafind::luafind ALIAS luafind_static)
  endif()
  add_library(luafind::luafind_static ALIAS luafind_static)
endif()
