# SPDX-License-Identifier: GPL-2.0
# mlf_add_cases(PREFIX EXE SOURCE): one ctest test per TEST(name) of
# SOURCE (tests/testlib.h), named PREFIX/name, running EXE with
# TESTLIB_CASE=name. The binary also gets every name found here and fails
# if it holds a case not among them, so a case this scan misses cannot go
# unrun; a case under an #ifdef this build does not take is skipped. The
# source is a configure dependency: a new case is registered at the next
# build.
function(mlf_add_cases prefix exe source)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${source})
  file(STRINGS ${source} lines REGEX "^TEST\\([A-Za-z0-9_]+\\)")
  if(NOT lines)
    message(FATAL_ERROR "${source}: no TEST(name) line")
  endif()
  list(TRANSFORM lines REPLACE "^TEST\\(([A-Za-z0-9_]+)\\).*" "\\1" OUTPUT_VARIABLE names)
  string(REPLACE ";" "," registered "${names}")
  foreach(name ${names})
    add_test(NAME ${prefix}/${name} COMMAND ${exe})
    set_tests_properties(${prefix}/${name} PROPERTIES
      ENVIRONMENT "TESTLIB_CASE=${name};TESTLIB_REGISTERED=${registered}"
      SKIP_RETURN_CODE 77)
  endforeach()
endfunction()
