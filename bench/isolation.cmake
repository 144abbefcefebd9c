# SPDX-License-Identifier: GPL-2.0
# The isolation benchmark (seed 004's experiment), once per iso variant that
# keeps NR_ISOLATED. Included from bench/CMakeLists.txt.
if(TARGET mlf_reclaim_iso-count)
  foreach(iso iso-count iso-throttle)
    add_executable(bench_isolation_${iso} isolation.c)
    target_link_libraries(bench_isolation_${iso} PRIVATE mlf_reclaim_${iso})
  endforeach()
endif()
