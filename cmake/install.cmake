# install.cmake: what `cmake --install` installs, included from the
# top-level CMakeLists.txt after cmake/libraries.cmake, only when luafind is
# the project being built (a host's add_subdirectory() installs none of it).
#
#   bin/luafind, share/man/man1/luafind.1
#   share/luafind/scripts/*.lua                  the bundled cleanup scripts
#   share/{bash-completion,zsh,fish}/...         the shell completions
#   lib/libluafind-core.so, libluafind-core.a    the walk and find's language,
#                                                no Lua (cmake/libraries.cmake)
#   include/luafind/{walk,mem,stat,isolate,query,error}.h
#                                                their headers: <luafind/walk.h>
#   ${libdir}/pkgconfig/luafind-core.pc          -lluafind-core
#   ${libdir}/cmake/luafind/                     find_package(luafind):
#                                                luafind::core (shared),
#                                                luafind::core_static
#   share/man/man3/luafind.3
# and with the Lua binding (LUAFIND_WITH_LUA):
#   lib/libluafind.so, libluafind.a              the same and the binding
#   include/luafind/luafind.h                    #include <luafind/luafind.h>
#   ${libdir}/pkgconfig/luafind.pc               -lluafind and Lua 5.4
#   ${libdir}/cmake/luafind/                     luafind::lua (shared),
#                                                luafind::lua_static, and
#                                                luafind::luafind(_static) as
#                                                aliases
#   ${LUAFIND_INSTALL_CMODDIR}/luafind/core.so   require "luafind.core"
#   ${LUAFIND_INSTALL_LMODDIR}/luafind/*.lua     require "luafind"
#   share/man/man3/luafind-lua.3, share/man/man7/luafind-scripts.7
#
# The .pc files are written at install time with the prefix actually used.

include(CMakePackageConfigHelpers)

install(TARGETS luafind)
install(FILES ${PROJECT_SOURCE_DIR}/man/luafind.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/share/luafind/scripts DESTINATION ${CMAKE_INSTALL_DATADIR}/luafind
  FILES_MATCHING PATTERN "*.lua")
install(FILES ${_lf_compl}/luafind.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
  RENAME luafind)
install(FILES ${_lf_compl}/_luafind DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${_lf_compl}/luafind.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)

# The libraries and their headers, one export set a layer, so that
# luafindConfig.cmake loads the Lua one only where Lua is found.
set(_lf_cmakedir ${CMAKE_INSTALL_LIBDIR}/cmake/luafind)
set(_lf_where
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  FILE_SET HEADERS DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS luafind_core_shared luafind_core_static EXPORT luafindCoreTargets ${_lf_where})
install(EXPORT luafindCoreTargets NAMESPACE luafind:: DESTINATION ${_lf_cmakedir})
if(TARGET luafind_shared)
  install(TARGETS luafind_shared luafind_static EXPORT luafindLuaTargets ${_lf_where})
  install(EXPORT luafindLuaTargets NAMESPACE luafind:: DESTINATION ${_lf_cmakedir})
endif()

# The .pc files are relocatable: the prefix is found from the file's own
# directory (${pcfiledir}/../.. under lib/pkgconfig, one more .. under
# Debian's lib/<triplet>/pkgconfig), so a moved prefix still builds hosts.
# Only an absolute CMAKE_INSTALL_LIBDIR, whose place does not follow the
# prefix, gets the prefix `cmake --install --prefix` used, at install time.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(LF_PC_PREFIX "@LF_PC_PREFIX@")
else()
  set(LF_PC_PREFIX "\${pcfiledir}")
  string(REPLACE "/" ";" _lf_pc_parts "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
  foreach(_lf_part ${_lf_pc_parts})
    if(_lf_part AND NOT _lf_part STREQUAL ".")
      string(APPEND LF_PC_PREFIX "/..")
    endif()
  endforeach()
endif()
set(LF_PC_PRIVATE "libpcre2-8 libacl libcap")
if(LUAFIND_IO_URING)
  string(APPEND LF_PC_PRIVATE " liburing")
endif()
if(LUAFIND_SECCOMP)
  string(APPEND LF_PC_PRIVATE " libseccomp")
endif()
set(LF_CONFIG_URING ${LUAFIND_IO_URING})
set(LF_CONFIG_SECCOMP ${LUAFIND_SECCOMP})
function(lf_luafind_pc name about requires)
  set(LF_PC_NAME ${name})
  set(LF_PC_ABOUT ${about})
  set(LF_PC_REQUIRES ${requires})
  configure_file(${PROJECT_SOURCE_DIR}/cmake/luafind.pc.in ${PROJECT_BINARY_DIR}/${name}.pc.in @ONLY)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
    install(CODE "
      set(LF_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
      configure_file(\"${PROJECT_BINARY_DIR}/${name}.pc.in\" \"${PROJECT_BINARY_DIR}/${name}.pc\" @ONLY)
    ")
  else()
    configure_file(${PROJECT_BINARY_DIR}/${name}.pc.in ${PROJECT_BINARY_DIR}/${name}.pc @ONLY)
  endif()
  install(FILES ${PROJECT_BINARY_DIR}/${name}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endfunction()
lf_luafind_pc(luafind-core "luafind's file tree walker and find expression library, without Lua" "")
if(TARGET luafind_shared)
  lf_luafind_pc(luafind "luafind's file tree walker, find expression library and Lua binding"
    "Requires: ${LUA_MODULE_NAME}")
endif()

# find_package(luafind)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/luafindConfig.cmake.in
  ${PROJECT_BINARY_DIR}/luafindConfig.cmake
  INSTALL_DESTINATION ${_lf_cmakedir})
# 0.x: a new minor version may break the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/luafindConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/luafindConfig.cmake
  ${PROJECT_BINARY_DIR}/luafindConfigVersion.cmake
  DESTINATION ${_lf_cmakedir})
install(FILES ${PROJECT_SOURCE_DIR}/man/luafind.3 DESTINATION ${CMAKE_INSTALL_MANDIR}/man3)

if(TARGET luafind_shared)
  # The Lua module for stock lua5.4 (see lua.cmake for the directories).
  install(TARGETS luafind_core LIBRARY DESTINATION ${LUAFIND_INSTALL_CMODDIR}/luafind)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/lua/luafind
    DESTINATION ${LUAFIND_INSTALL_LMODDIR}
    FILES_MATCHING PATTERN "*.lua")
  install(FILES ${PROJECT_SOURCE_DIR}/man/luafind-lua.3 DESTINATION ${CMAKE_INSTALL_MANDIR}/man3)
  install(FILES ${PROJECT_SOURCE_DIR}/man/luafind-scripts.7 DESTINATION ${CMAKE_INSTALL_MANDIR}/man7)
endif()
