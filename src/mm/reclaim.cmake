# SPDX-License-Identifier: GPL-2.0
# The eviction port for the reclaim target: the memcg LRU port compiled with
# MLF_EVICTION (shrink_one's outcome from folio state), plus the folio side,
# the stats, the shadow budget, the reclaim checks and the reclaim driver.
# Included from the top CMakeLists.txt after mlf_add_port().

set(MLF_RECLAIM_SOURCES
  src/mm/eviction.c src/mm/stats.c src/mm/workingset.c
  src/check/reclaim_checks.c src/harness/reclaim_world.c)
set(MLF_ISO "iso-throttle" CACHE STRING
    "Isolation variant of the reclaim port: iso-none, iso-count, iso-throttle")
set(MLF_ISO_VARIANTS iso-none iso-count iso-throttle)
# bug variants that live in the eviction port (the reclaim target's zoo)
set(MLF_RECLAIM_BUGS bug-no-nr-isolated bug-throttle-any-type bug-shadow-lru-size)

# mlf_add_reclaim_port(NAME ISO [BUG]) -> static library mlf_reclaim_NAME
function(mlf_add_reclaim_port name iso)
  set(all ${MLF_PORT_SOURCES} ${MLF_RECLAIM_SOURCES})
  list(TRANSFORM all PREPEND ${CMAKE_SOURCE_DIR}/ OUTPUT_VARIABLE sources)
  add_library(mlf_reclaim_${name} STATIC ${sources})
  mlf_variant_macro(${MLF_VARIANT} vmacro)
  string(TOUPPER "${iso}" imacro)
  string(REPLACE "-" "_" imacro "${imacro}")
  target_compile_definitions(mlf_reclaim_${name} PUBLIC
    ${vmacro} MLF_EVICTION MLF_${imacro})
  if(ARGC GREATER 2 AND NOT "${ARGV2}" STREQUAL "")
    mlf_bug_macro(${ARGV2} bmacro)
    target_compile_definitions(mlf_reclaim_${name} PUBLIC ${bmacro})
  endif()
  target_include_directories(mlf_reclaim_${name} PUBLIC ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(mlf_reclaim_${name} PUBLIC mlf_kernel)
endfunction()

foreach(iso ${MLF_ISO_VARIANTS})
  mlf_add_reclaim_port(${iso} ${iso})
endforeach()
# the reclaim target's port: a reclaim bug (on iso-throttle) or MLF_ISO
if(MLF_BUG AND MLF_BUG IN_LIST MLF_RECLAIM_BUGS)
  mlf_add_reclaim_port(${MLF_BUG} iso-throttle ${MLF_BUG})
  set(MLF_RECLAIM_PORT mlf_reclaim_${MLF_BUG})
else()
  set(MLF_RECLAIM_PORT mlf_reclaim_${MLF_ISO})
endif()
