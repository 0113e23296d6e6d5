# install.cmake: libluafind and everything an embedder installs, included
# from the top-level CMakeLists.txt after src/lua/lua.cmake.
#
#   luafind_static  lib/libluafind.a    core objects + binding objects
#   luafind_shared  lib/libluafind.so   the same, exporting only the API of
#                                       luafind.h (cmake/libluafind.map); Lua
#                                       symbols are left to the host
#   include/luafind/{luafind,walk,mem,stat,isolate,query,error}.h
#                                               #include <luafind/luafind.h>
#   ${LUAFIND_INSTALL_CMODDIR}/luafind/core.so  require "luafind.core"
#   ${LUAFIND_INSTALL_LMODDIR}/luafind/*.lua    require "luafind"
#   ${libdir}/pkgconfig/luafind.pc              written at install time with
#                                               the prefix actually used
#   ${libdir}/cmake/luafind/                    find_package(luafind):
#                                               luafind::luafind (shared),
#                                               luafind::luafind_static
#   share/man/man3/luafind.3 luafind-lua.3
#
# The luafind executable and luafind.1 are installed by the top level.

include(CMakePackageConfigHelpers)

set(_lf_libs luafind_static luafind_shared)
add_library(luafind_static STATIC $<TARGET_OBJECTS:lf_core> $<TARGET_OBJECTS:lf_lua>)
add_library(luafind_shared SHARED $<TARGET_OBJECTS:lf_core> $<TARGET_OBJECTS:lf_lua>)
foreach(t ${_lf_libs})
  target_include_directories(${t} INTERFACE
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  # The host provides Lua: libluafind calls it but never links it.
  target_link_libraries(${t} INTERFACE
    $<BUILD_INTERFACE:PkgConfig::LUA> $<INSTALL_INTERFACE:luafind::lua>)
  set_target_properties(${t} PROPERTIES
    OUTPUT_NAME luafind
    ARCHIVE_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib
    LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib)
endforeach()
target_link_libraries(luafind_static INTERFACE
  $<BUILD_INTERFACE:PkgConfig::PCRE2> $<INSTALL_INTERFACE:luafind::pcre2> Threads::Threads)
target_link_libraries(luafind_shared PRIVATE PkgConfig::PCRE2 Threads::Threads)
# liburing (the I/O queue's stats, src/core/ring.c), like PCRE2.
if(LUAFIND_IO_URING)
  target_link_libraries(luafind_static INTERFACE
    $<BUILD_INTERFACE:PkgConfig::URING> $<INSTALL_INTERFACE:luafind::uring>)
  target_link_libraries(luafind_shared PRIVATE PkgConfig::URING)
  set(LF_PC_URING " liburing")
else()
  set(LF_PC_URING "")
endif()
set(LF_CONFIG_URING ${LUAFIND_IO_URING})
# libseccomp (lf_isolate_start's filter, src/core/isolate.c), likewise.
if(LUAFIND_SECCOMP)
  target_link_libraries(luafind_static INTERFACE
    $<BUILD_INTERFACE:PkgConfig::SECCOMP> $<INSTALL_INTERFACE:luafind::seccomp>)
  target_link_libraries(luafind_shared PRIVATE PkgConfig::SECCOMP)
  set(LF_PC_SECCOMP " libseccomp")
else()
  set(LF_PC_SECCOMP "")
endif()
set(LF_CONFIG_SECCOMP ${LUAFIND_SECCOMP})
target_link_options(luafind_shared PRIVATE
  -Wl,--version-script=${CMAKE_CURRENT_LIST_DIR}/libluafind.map)
set_target_properties(luafind_shared PROPERTIES
  EXPORT_NAME luafind
  VERSION ${PROJECT_VERSION}
  SOVERSION ${PROJECT_VERSION_MAJOR}
  LINK_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/libluafind.map)
set_target_properties(luafind_static PROPERTIES EXPORT_NAME luafind_static)

install(TARGETS ${_lf_libs} EXPORT luafindTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The public headers (include/luafind), as <luafind/NAME.h>:
# copied into the build tree too, so that tests include them as hosts do.
set(LUAFIND_PUBLIC_HEADERS
  ${PROJECT_SOURCE_DIR}/include/luafind/luafind.h
  ${PROJECT_SOURCE_DIR}/include/luafind/walk.h
  ${PROJECT_SOURCE_DIR}/include/luafind/mem.h
  ${PROJECT_SOURCE_DIR}/include/luafind/stat.h
  ${PROJECT_SOURCE_DIR}/include/luafind/isolate.h
  ${PROJECT_SOURCE_DIR}/include/luafind/query.h
  ${PROJECT_SOURCE_DIR}/include/luafind/error.h)
file(COPY ${LUAFIND_PUBLIC_HEADERS} DESTINATION ${PROJECT_BINARY_DIR}/include/luafind)
install(FILES ${LUAFIND_PUBLIC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/luafind)

# The Lua module for stock lua5.4 (see lua.cmake for the directories).
install(TARGETS luafind_core LIBRARY DESTINATION ${LUAFIND_INSTALL_CMODDIR}/luafind)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lua/luafind
  DESTINATION ${LUAFIND_INSTALL_LMODDIR}
  FILES_MATCHING PATTERN "*.lua")

# luafind.pc: everything is substituted now but the prefix, which is the
# one `cmake --install --prefix` uses, substituted at install time.
set(LF_PC_PREFIX "@LF_PC_PREFIX@")
configure_file(${CMAKE_CURRENT_LIST_DIR}/luafind.pc.in ${PROJECT_BINARY_DIR}/luafind.pc.in @ONLY)
install(CODE "
  set(LF_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  configure_file(\"${PROJECT_BINARY_DIR}/luafind.pc.in\" \"${PROJECT_BINARY_DIR}/luafind.pc\" @ONLY)
")
install(FILES ${PROJECT_BINARY_DIR}/luafind.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# find_package(luafind)
set(_lf_cmakedir ${CMAKE_INSTALL_LIBDIR}/cmake/luafind)
install(EXPORT luafindTargets NAMESPACE luafind:: DESTINATION ${_lf_cmakedir})
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

install(FILES
  ${PROJECT_SOURCE_DIR}/man/luafind.3
  ${PROJECT_SOURCE_DIR}/man/luafind-lua.3
  DESTINATION ${CMAKE_INSTALL_MANDIR}/man3)
install(FILES ${PROJECT_SOURCE_DIR}/man/luafind-scripts.7 DESTINATION ${CMAKE_INSTALL_MANDIR}/man7)
