# unit.cmake: the core's cmocka programs, one per module (STYLE.md 2.7).
#
# Included from tests/CMakeLists.txt (include(unit/unit.cmake)).  Expects:
#   - the lf_core target (static, PUBLIC include dir src/core), and lf_find
#     (src/find) for test_datetime;
#   - find_package(PkgConfig) done (the top-level CMakeLists.txt does it).
# Defines test_dir, test_stat, test_walk, test_wildmatch, test_ring and the tests unit.dir,
# unit.stat, unit.walk, unit.wildmatch, unit.ring (SKIP without io_uring); test_datetime (unit.datetime), for lf_find's date parser; and
# test_parse (unit.parse), for -j and the read-ahead rule; test_idset (unit.idset), -unique's set.
# test_probe (unit.probe): the choice between two ways of doing the work (probe.c).
# test_walk_rootfd (unit.walk_rootfd): roots given by fd (lf_walk_opts.root_fds).
# Configure with -DLUAFIND_SANITIZE=ON to run them under ASan+UBSan (LSan
# included).
#
# Fault injection is by symbol wrapping, which works because lf_core is a
# static library linked into each test program:
#   test_walk: -Wl,--wrap=openat   (EMFILE, ENAMETOOLONG, swapping a directory
#                                   underneath the walker)
#              -Wl,--wrap=syscall  (getdents64: DT_UNKNOWN, EIO)
#              -Wl,--wrap=statx    (a stat that takes 100 ms: the walker
#                                   waiting for the stat-ahead thread sleeps)
#              -Wl,--wrap=getrusage (the I/O queue's jobs seem to block on
#                                    I/O, so that its workers wake up)
#   test_stat: -Wl,--wrap=statx    (ENOSYS, to test the fstatat fallback)
# If the core is ever built with _FILE_OFFSET_BITS=64 on a 32-bit target, or
# with _FORTIFY_SOURCE, check `nm -u` of walk_*.c.o: the wrapped names must be
# the undefined symbols the core really references (openat, not openat64 or
# __openat_2), or the wraps silently stop injecting.

pkg_check_modules(CMOCKA REQUIRED IMPORTED_TARGET cmocka)

foreach(m dir stat walk walk_rootfd wildmatch ring isolate probe)
  add_executable(test_${m} ${CMAKE_CURRENT_LIST_DIR}/test_${m}.c)
  target_link_libraries(test_${m} PRIVATE lf_core PkgConfig::CMOCKA)
  set_target_properties(test_${m} PROPERTIES C_EXTENSIONS ON)
  add_test(NAME unit.${m} COMMAND test_${m})
endforeach()
set_tests_properties(unit.ring unit.isolate PROPERTIES SKIP_RETURN_CODE 77)
if(LUAFIND_IO_URING)
  target_compile_definitions(test_ring PRIVATE LF_HAVE_URING) # a ring must then be had where the kernel has io_uring
endif()

# The date parser of -newerXt is find's (lf_find), a pure function: no wraps.
add_executable(test_datetime ${CMAKE_CURRENT_LIST_DIR}/test_datetime.c)
target_link_libraries(test_datetime PRIVATE lf_find PkgConfig::CMOCKA)
set_target_properties(test_datetime PROPERTIES C_EXTENSIONS ON)
add_test(NAME unit.datetime COMMAND test_datetime)

# -unique's set of files seen (idset.c): lf_find, no wraps.
add_executable(test_idset ${CMAKE_CURRENT_LIST_DIR}/test_idset.c)
target_link_libraries(test_idset PRIVATE lf_find PkgConfig::CMOCKA)
set_target_properties(test_idset PROPERTIES C_EXTENSIONS ON)
add_test(NAME unit.idset COMMAND test_idset)

# Characters in -regex (lf_regex.h's LF_REGEX_UTF, regex_bound.c, prim_tests.c)
# under LC_ALL=C and C.UTF-8, as a C host sees them: lf_find, no wraps.
add_executable(test_regex ${CMAKE_CURRENT_LIST_DIR}/test_regex.c)
target_link_libraries(test_regex PRIVATE lf_find PkgConfig::CMOCKA)
set_target_properties(test_regex PROPERTIES C_EXTENSIONS ON)
add_test(NAME unit.regex COMMAND test_regex)

# -j and the rule for LF_WALK_READ_AHEAD (parse.c, query.c): lf_find, no wraps.
add_executable(test_parse ${CMAKE_CURRENT_LIST_DIR}/test_parse.c)
target_link_libraries(test_parse PRIVATE lf_find PkgConfig::CMOCKA)
set_target_properties(test_parse PROPERTIES C_EXTENSIONS ON)
add_test(NAME unit.parse COMMAND test_parse)

target_link_options(test_walk PRIVATE LINKER:--wrap=openat LINKER:--wrap=syscall LINKER:--wrap=getrusage
  LINKER:--wrap=statx)
target_link_options(test_stat PRIVATE LINKER:--wrap=statx)

# The trees are made under mkdtemp() in /tmp; the walk tests build a few
# trees of 10,000 entries and chains 2,000 deep.
set_tests_properties(unit.dir unit.stat unit.walk PROPERTIES TIMEOUT 300)

# A C host's deleting query refuses a link to / under -H and -L, whatever
# its walk's order and flags (unlinkat wrapped: nothing is ever removed).
add_executable(test_query_refuse ${CMAKE_CURRENT_LIST_DIR}/test_query_refuse.c)
target_link_libraries(test_query_refuse PRIVATE lf_find PkgConfig::CMOCKA)
target_link_options(test_query_refuse PRIVATE LINKER:--wrap=unlinkat)
set_target_properties(test_query_refuse PROPERTIES C_EXTENSIONS ON)
add_test(NAME unit.query_refuse COMMAND test_query_refuse)

# The query API's answers and kept errors (query.c, diag.c): lf_find, no wraps.
add_executable(test_query ${CMAKE_CURRENT_LIST_DIR}/test_query.c)
target_link_libraries(test_query PRIVATE lf_find PkgConfig::CMOCKA)
set_target_properties(test_query PROPERTIES C_EXTENSIONS ON)
add_test(NAME unit.query COMMAND test_query)

# Records, the files a host found by itself (lf_query_eval_record: query.c,
# record.c, walk_record.c), against a walk of the same tree; statx wrapped
# to count the stats.  With the binding built, the program also links the
# command line's -lua (src/cli/prim_lua.c) and checks it on records.
add_executable(test_record ${CMAKE_CURRENT_LIST_DIR}/test_record.c)
target_link_libraries(test_record PRIVATE lf_find PkgConfig::CMOCKA)
target_link_options(test_record PRIVATE LINKER:--wrap=statx)
set_target_properties(test_record PROPERTIES C_EXTENSIONS ON)
if(TARGET lf_lua_cli)
  target_sources(test_record PRIVATE ${PROJECT_SOURCE_DIR}/src/cli/prim_lua.c ${PROJECT_SOURCE_DIR}/src/cli/status.c)
  target_include_directories(test_record PRIVATE ${PROJECT_SOURCE_DIR}/src/cli)
  target_link_libraries(test_record PRIVATE lf_lua_cli)
  target_compile_definitions(test_record PRIVATE LF_TEST_LUA LUAFIND_HAVE_LUA)
endif()
add_test(NAME unit.record COMMAND test_record)
