# SPDX-License-Identifier: GPL-2.0
# The reclaim fuzz target (against MLF_RECLAIM_PORT from src/mm/reclaim.cmake),
# its corpus replay, its trace (in mlf-trace and the trace_parser target, with
# their round-trip tests), and test_reclaim once per iso variant. Included
# from fuzz/CMakeLists.txt after the other mlf_fuzz_target() lines and after
# mlf-trace is defined.
if(NOT TARGET mlf_reclaim_iso-throttle)
  return()
endif()

add_library(mlf_reclaim_codec STATIC reclaim_codec.c reclaim_trace.c)
target_include_directories(mlf_reclaim_codec PUBLIC ${CMAKE_SOURCE_DIR}/src
                                                    ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(mlf_reclaim_codec PUBLIC ${MLF_RECLAIM_PORT} mlf_trace_lex)
if(MLF_FUZZ)
  foreach(lib mlf_reclaim_codec ${MLF_RECLAIM_PORT})
    target_compile_options(${lib} PRIVATE -fsanitize=fuzzer-no-link)
  endforeach()
endif()
mlf_fuzz_target(reclaim mlf_reclaim_codec ${MLF_RECLAIM_PORT})

# the reclaim trace in mlf-trace (--target reclaim) and in trace_parser:
# their reclaim parts compile only where the codec is linked
set(mlf_trace_users mlf-trace trace_parser_replay)
if(TARGET trace_parser)
  list(APPEND mlf_trace_users trace_parser)
endif()
foreach(t ${mlf_trace_users})
  target_link_libraries(${t} PRIVATE mlf_reclaim_codec)
  target_compile_definitions(${t} PRIVATE MLF_TRACE_RECLAIM)
endforeach()

# every reclaim seed and its .trace twin, and random inputs, round-trip;
# a seed's bytes are canonical (its twin encodes to exactly them)
if(IS_DIRECTORY ${MLF_CORPUS}/reclaim)
  add_test(NAME trace/roundtrip/reclaim
           COMMAND mlf-trace roundtrip --target reclaim ${MLF_CORPUS}/reclaim)
  set_tests_properties(trace/roundtrip/reclaim PROPERTIES
    FAIL_REGULAR_EXPRESSION "roundtrip: 0 inputs")
endif()
add_test(NAME trace/selftest/reclaim
         COMMAND mlf-trace selftest --target reclaim 20000)

if(IS_DIRECTORY ${MLF_CORPUS}/reclaim)
  # replay/reclaim comes from fuzz/CMakeLists.txt's loop over targets;
  # here every correct iso variant replays the corpus clean
  foreach(iso ${MLF_ISO_VARIANTS})
    add_executable(reclaim_replay_${iso} reclaim.c reclaim_codec.c replay_main.c)
    target_include_directories(reclaim_replay_${iso} PRIVATE
      ${CMAKE_SOURCE_DIR}/src ${CMAKE_CURRENT_SOURCE_DIR})
    target_link_libraries(reclaim_replay_${iso} PRIVATE mlf_reclaim_${iso})
    add_test(NAME replay/reclaim/${iso}
             COMMAND reclaim_replay_${iso} ${MLF_CORPUS}/reclaim)
    set_tests_properties(replay/reclaim/${iso} PROPERTIES
      PASS_REGULAR_EXPRESSION "replayed [1-9][0-9]* inputs" TIMEOUT 600)
  endforeach()
endif()

# unit and negative tests of the reclaim checks, per iso variant
set(mlf_test_reclaim ${CMAKE_SOURCE_DIR}/tests/test_reclaim.c)
if(EXISTS ${mlf_test_reclaim})
  foreach(iso ${MLF_ISO_VARIANTS})
    add_executable(test_reclaim_${iso} ${mlf_test_reclaim})
    target_link_libraries(test_reclaim_${iso} PRIVATE mlf_reclaim_${iso})
    add_test(NAME reclaim/${iso} COMMAND test_reclaim_${iso})
  endforeach()
endif()
