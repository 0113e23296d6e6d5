# fuzz.cmake: libFuzzer targets (clang), built by the fuzz preset (-DLUAFIND_FUZZ=ON
# with clang; CMakeLists.txt instruments every object); not part of ctest,
# run by tools/ci-checks.sh fuzz.  Each target has a seed
# corpus in tests/fuzz/corpus/NAME and uses tests/fuzz/dict_NAME.txt if there
# is one (fuzz_lua's hostile constructs), the shared tests/fuzz/dict.txt if not:
#
#   mkdir -p /tmp/fz && build/fuzz/fuzz_expr -dict=tests/fuzz/dict.txt \
#       -max_total_time=60 /tmp/fz tests/fuzz/corpus/expr
#
# (libFuzzer writes new inputs into its first directory: never the seeds')
#
#   fuzz_expr      find's language: parse and evaluate (safe policy), -printf
#   fuzz_datetime  -newermt's date parser
#   fuzz_regex     the PCRE2 facade
#   fuzz_lua       Lua snippets in a sandbox against luafind.core; a run over
#                  2 s of CPU or the heap over twice the cap is a finding
set(_lf_fuzz_flags -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all)
foreach(t expr datetime regex lua)
  add_executable(fuzz_${t} ${CMAKE_CURRENT_LIST_DIR}/fuzz_${t}.c)
  target_compile_options(fuzz_${t} PRIVATE ${_lf_fuzz_flags})
  target_link_options(fuzz_${t} PRIVATE ${_lf_fuzz_flags})
  set_target_properties(fuzz_${t} PROPERTIES C_EXTENSIONS ON)
endforeach()
target_link_libraries(fuzz_datetime PRIVATE lf_find)
target_link_libraries(fuzz_regex PRIVATE lf_core)
foreach(t expr lua)
  target_include_directories(fuzz_${t} PRIVATE ${LUA_INCLUDE_DIRS})
  target_link_libraries(fuzz_${t} PRIVATE luafind_static PkgConfig::PCRE2 PkgConfig::LUA Threads::Threads)
endforeach()
