# SPDX-License-Identifier: GPL-2.0
# Campaign tests (included at the end of fuzz/CMakeLists.txt): the OSS-Fuzz
# build script and what it leaves in $OUT, (libFuzzer trees only) that
# a SIGKILLed `tools/mlf fuzz` campaign resumes with no corpus entry or
# crash lost, and (the libFuzzer + TSan tree) that the concurrent target
# runs every correct variant clean under TSan. The first two need clang;
# the second builds a bug variant's fuzz tree under build/ through
# tools/mlf on its first run.

# (its code under test is the vendored cut of the default tree: tested
# in the builds of the default tree only)
find_program(MLF_CLANG clang)
if(MLF_CLANG AND MLF_DEFAULT_CODE)
  add_test(NAME campaign/oss-fuzz-build
           COMMAND ${CMAKE_SOURCE_DIR}/tests/campaign/oss_fuzz_check.sh)
  set_tests_properties(campaign/oss-fuzz-build PROPERTIES TIMEOUT 600)
endif()

if(MLF_LIBFUZZER AND NOT MLF_SANITIZE MATCHES "thread")
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    add_test(NAME campaign/kill-resume
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/campaign/kill_resume.py)
    set_tests_properties(campaign/kill-resume PROPERTIES TIMEOUT 900 RUN_SERIAL TRUE)
  endif()
endif()

# campaign/tsan/<variant>/{empty,shipped}-corpus: the concurrent target of
# each correct variant (concurrent_<variant>) fuzzed MLF_TSAN_CLEAN seconds
# from an empty corpus and from a copy of corpus/concurrent, as tools/mlf
# fuzz runs it: no report at all. Correct code under TSan must run clean; a
# report is a false alarm, the harness's or the shim's (libFuzzer's
# counters once failed every such campaign on its first input).
if(MLF_LIBFUZZER AND MLF_SANITIZE MATCHES "thread")
  set(MLF_TSAN_CLEAN 15 CACHE STRING
      "seconds each correct variant's concurrent target runs clean under TSan (ctest)")
  file(STRINGS ${CMAKE_CURRENT_SOURCE_DIR}/concurrent.options max_len
       REGEX "^max_len *= *[0-9]+")
  string(REGEX REPLACE "^max_len *= *" "-max_len=" max_len "${max_len}")
  foreach(v ${MLF_CORRECT_VARIANTS})
    foreach(from empty shipped)
      set(w ${CMAKE_CURRENT_BINARY_DIR}/tsan-clean/${v}-${from})
      set(seed "")
      if(from STREQUAL "shipped")
        set(seed "find '${MLF_CORPUS}/concurrent' -maxdepth 1 -type f ! -name '*.trace' ! -name '.*' ! -name 'README*' -exec cp {} '${w}/corpus/' \\;")
      endif()
      set(name campaign/tsan/${v}/${from}-corpus)
      add_test(NAME ${name} COMMAND sh -c "
        set -e; rm -rf '${w}'; mkdir -p '${w}/corpus' '${w}/crashes'
        ${seed}
        '$<TARGET_FILE:concurrent_${v}>' -max_total_time=${MLF_TSAN_CLEAN} -timeout=25 \
          -rss_limit_mb=4096 ${max_len} -dict='${CMAKE_CURRENT_SOURCE_DIR}/concurrent.dict' \
          -print_final_stats=1 -artifact_prefix='${w}/crashes/' '${w}/corpus' 2>&1 |
          grep -v -e '^#[0-9]'
      ")
      # a clean end ran inputs; any report, check or crash fails it
      set_tests_properties(${name} PROPERTIES
        PASS_REGULAR_EXPRESSION "Done [1-9][0-9]* runs in"
        FAIL_REGULAR_EXPRESSION "ThreadSanitizer|MLF FAILURE|ERROR: libFuzzer|ERROR: [A-Za-z]+Sanitizer"
        TIMEOUT 300 LABELS fuzz-tsan)
    endforeach()
  endforeach()
endif()
