# SPDX-License-Identifier: GPL-2.0
# Campaign tests (included at the end of fuzz/CMakeLists.txt): the OSS-Fuzz
# build script and what it leaves in $OUT, and (libFuzzer trees only) that
# a SIGKILLed `tools/mlf fuzz` campaign resumes with no corpus entry or
# crash lost. Both need clang; the second builds a bug variant's fuzz tree
# under build/ through tools/mlf on its first run.

find_program(MLF_CLANG clang)
if(MLF_CLANG)
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
