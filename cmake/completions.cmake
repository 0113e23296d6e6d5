# completions.cmake: make the shell completions (completions/*.in) with the
# primaries the parser registers, the -regextype names and the -json
# fields, taken from the sources' tables, so that the completions cannot
# drift from the parser.
#
#   cmake -DSRC=<source dir> -DOUT=<output dir> -P completions.cmake
#
# A primary is a row {"-name", LF_PRIM_KIND, NARGS, ...} of a file of
# src/find or src/cli; a -regextype name a row {"name", bool, ...} of
# prim_tests.c's regextypes[] table.

file(GLOB _lf_srcs ${SRC}/src/find/*.c ${SRC}/src/cli/*.c)
set(_all "")
set(_args "")
foreach(_f ${_lf_srcs})
  file(STRINGS ${_f} _rows REGEX "{\"-[A-Za-z0-9_-]+\", LF_PRIM_[A-Z_]+, ")
  foreach(_row ${_rows})
    string(REGEX MATCHALL "{\"-[A-Za-z0-9_-]+\", LF_PRIM_[A-Z_]+, [A-Z_0-9-]+" _cells "${_row}")
    foreach(_cell ${_cells})
      string(REGEX REPLACE "^{\"(-[A-Za-z0-9_-]+)\", LF_PRIM_[A-Z_]+, ([A-Z_0-9-]+)$" "\\1;\\2" _pair "${_cell}")
      list(GET _pair 0 _name)
      list(GET _pair 1 _nargs)
      list(APPEND _all ${_name})
      if(NOT _nargs STREQUAL "0")
        list(APPEND _args ${_name})
      endif()
    endforeach()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES _all)
list(SORT _all)
list(REMOVE_DUPLICATES _args)
list(SORT _args)
list(LENGTH _all _n)
if(_n LESS 50)
  message(FATAL_ERROR "completions.cmake: only ${_n} primaries found in ${SRC}/src: did the tables change form?")
endif()

file(READ ${SRC}/src/find/prim_tests.c _tests)
string(REGEX MATCH "} regextypes\\[\\] = {[^;]*;" _table "${_tests}")
string(REGEX MATCHALL "{\"[a-z0-9-]+\", (true|false)" _types "${_table}")
set(_regextypes "")
foreach(_t ${_types})
  string(REGEX REPLACE "^{\"([a-z0-9-]+)\".*" "\\1" _t "${_t}")
  list(APPEND _regextypes ${_t})
endforeach()
if(NOT _regextypes)
  message(FATAL_ERROR "completions.cmake: no -regextype names found in prim_tests.c")
endif()

# The -json field names: json.c's field_names[] table.
file(READ ${SRC}/src/find/json.c _json)
string(REGEX MATCHALL "\\[LF_JSON_[A-Z]+\\] = \"[a-z]+\"" _jrows "${_json}")
set(_jfields "")
foreach(_r ${_jrows})
  string(REGEX REPLACE "^.*\"([a-z]+)\"$" "\\1" _r "${_r}")
  list(APPEND _jfields ${_r})
endforeach()
list(LENGTH _jfields _nj)
if(_nj LESS 20)
  message(FATAL_ERROR "completions.cmake: only ${_nj} -json fields found in json.c: did the table change form?")
endif()
string(REPLACE ";" " " LF_JSON_FIELDS "${_jfields}")

string(REPLACE ";" " " LF_PRIMARIES "${_all}")
string(REPLACE ";" " " LF_PRIMARIES_ARGS "${_args}")
string(REPLACE ";" " " LF_REGEXTYPES "${_regextypes}")
configure_file(${SRC}/completions/luafind.bash.in ${OUT}/luafind.bash @ONLY)
configure_file(${SRC}/completions/_luafind.in ${OUT}/_luafind @ONLY)
configure_file(${SRC}/completions/luafind.fish.in ${OUT}/luafind.fish @ONLY)
