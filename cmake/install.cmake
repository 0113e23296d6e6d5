# install.cmake: what `cmake --install` installs, included from the
# top-level CMakeLists.txt after cmake/libraries.cmake, only when luafind is
# the project being built (a host's add_subdirectory() installs none of it).
#
#   bin/luafind, share/man/man1/luafind.1
#   share/luafind/scripts/*.lua                  the bundled cleanup scripts
#   share/{bash-completion,zsh,fish}/...         the shell completions
#   ${libdir}/libluafind-core.so, .a             the walk and find's language,
#                                                no Lua (cmake/libraries.cmake;
#                                                the .a alone without
#                                                LUAFIND_SHARED)
#   include/luafind/{walk,mem,stat,isolate,query,error}.h
#                                                their headers: <luafind/walk.h>
#   ${libdir}/pkgconfig/luafind-core.pc          -lluafind-core
#   ${libdir}/cmake/luafind/                     find_package(luafind):
#                                                luafind::core (shared),
#                                                luafind::core_static
#   share/man/man3/luafind.3
# and with the Lua binding (LUAFIND_WITH_LUA):
#   ${libdir}/libluafind.so, libluafind.a        the same and the binding
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
# ${libdir} is CMAKE_INSTALL_LIBDIR (GNUInstallDirs), chosen when the build
# is configured: lib/<triplet> for the prefix /usr on Debian, lib for any
# other; `cmake --install --prefix` moves that layout, it does not choose
# another (luafind(3), FILES).

include(CMakePackageConfigHelpers)

install(TARGETS luafind)
install(FILES ${PROJECT_SOURCE_DIR}/man/luafind.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
if(TARGET luafind-mpi) # -DLUAFIND_MPI=ON
  install(TARGETS luafind-mpi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/man/luafind-mpi.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
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
set(_lf_core_libs luafind_core_static)
set(_lf_lua_libs luafind_static)
if(LUAFIND_SHARED)
  list(APPEND _lf_core_libs luafind_core_shared)
  list(APPEND _lf_lua_libs luafind_shared)
endif()
install(TARGETS ${_lf_core_libs} EXPORT luafindCoreTargets ${_lf_where})
install(EXPORT luafindCoreTargets NAMESPACE luafind:: DESTINATION ${_lf_cmakedir})
if(TARGET luafind_static)
  install(TARGETS ${_lf_lua_libs} EXPORT luafindLuaTargets ${_lf_where})
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
# A shared library hides what it links (Requires.private, Libs.private:
# for --static only); the static libraries alone (LUAFIND_SHARED off) name
# it in Requires and Libs, so that `pkg-config --libs` links them as is.
function(lf_luafind_pc name about lua)
  set(LF_PC_NAME ${name})
  set(LF_PC_ABOUT ${about})
  if(LUAFIND_SHARED)
    set(LF_PC_REQUIRES "${lua}")
    set(LF_PC_REQUIRES_PRIVATE "Requires.private: ${LF_PC_PRIVATE}")
    set(LF_PC_LIBS "")
    set(LF_PC_LIBS_PRIVATE "Libs.private: -pthread")
  else()
    string(STRIP "${lua} ${LF_PC_PRIVATE}" LF_PC_REQUIRES)
    set(LF_PC_REQUIRES_PRIVATE "")
    set(LF_PC_LIBS " -pthread")
    set(LF_PC_LIBS_PRIVATE "")
  endif()
  if(LF_PC_REQUIRES)
    set(LF_PC_REQUIRES "Requires: ${LF_PC_REQUIRES}")
  endif()
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
if(TARGET luafind_static)
  lf_luafind_pc(luafind "luafind's file tree walker, find expression library and Lua binding"
    "${LUA_MODULE_NAME}")
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

if(TARGET luafind_static)
  # The Lua module for stock lua5.4 (see lua.cmake for the directories).
  install(TARGETS luafind_core LIBRARY DESTINATION ${LUAFIND_INSTALL_CMODDIR}/luafind)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/lua/luafind
    DESTINATION ${LUAFIND_INSTALL_LMODDIR}
    FILES_MATCHING PATTERN "*.lua")
  install(FILES ${PROJECT_SOURCE_DIR}/man/luafind-lua.3 DESTINATION ${CMAKE_INSTALL_MANDIR}/man3)
  install(FILES ${PROJECT_SOURCE_DIR}/man/luafind-scripts.7 DESTINATION ${CMAKE_INSTALL_MANDIR}/man7)
endif()

# `cmake --install --prefix /usr` of a build configured for another prefix
# keeps that build's layout (lib, lib/lua/5.4), which Debian's linker,
# pkg-config and lua5.4 search too; it says so, and how to get Debian's own
# multiarch directories (luafind(3), FILES; luafind-lua(3), STOCK lua5.4).
if(CMAKE_LIBRARY_ARCHITECTURE AND NOT CMAKE_INSTALL_LIBDIR MATCHES "/${CMAKE_LIBRARY_ARCHITECTURE}$")
  set(_lf_where_lua "")
  if(TARGET luafind_static)
    set(_lf_where_lua ", core.so in /usr/${LUAFIND_INSTALL_CMODDIR}/luafind")
  endif()
  install(CODE "
    if(CMAKE_INSTALL_PREFIX MATCHES \"^/usr/?$\")
      message(STATUS \"luafind: configured for the prefix ${CMAKE_INSTALL_PREFIX}: libraries in /usr/${CMAKE_INSTALL_LIBDIR}${_lf_where_lua}; for /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}, configure with -DCMAKE_INSTALL_PREFIX=/usr\")
    endif()
  ")
endif()
