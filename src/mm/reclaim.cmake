# SPDX-License-Identifier: GPL-2.0
# The reclaim target's library: the code under test at MLF_VARIANT compiled
# with MLF_EVICTION (shrink_one()'s outcome from folio state, and the tree's
# lru_gen_shrink_node()), on the eviction model below it: the folio side,
# the stats, the shadow budget, the reclaim checks and the reclaim driver.
# Included from the top CMakeLists.txt after mlf_add_port().

set(MLF_RECLAIM_SOURCES
  mm/eviction.c mm/stats.c mm/workingset.c mm/shrinker.c mm/page_counter.c
  check/reclaim_checks.c check/sort_checks.c check/gen_model.c harness/reclaim_world.c)
set(MLF_ISO "iso-throttle" CACHE STRING
    "Isolation variant of the reclaim port: iso-none, iso-count, iso-throttle")
set(MLF_ISO_VARIANTS iso-none iso-count iso-throttle)

# mlf_add_reclaim_port(NAME ISO [BUG]) -> static library mlf_reclaim_NAME
function(mlf_add_reclaim_port name iso)
  set(bug "")
  if(ARGC GREATER 2)
    set(bug "${ARGV2}")
  endif()
  string(TOUPPER "${iso}" imacro)
  string(REPLACE "-" "_" imacro "${imacro}")
  set(cut ${MLF_CUT})
  if(bug)
    set(cut ${MLF_TREE_BUG_CUT_${bug}})
  endif()
  mlf_add_port_library(mlf_reclaim_${name} "${MLF_PORT_SOURCES};${MLF_RECLAIM_SOURCES}"
                       ${cut} "${bug}" "MLF_VARIANT_NAME=\"${MLF_VARIANT}\""
                       MLF_EVICTION MLF_${imacro})
  # what fuzz/CMakeLists.txt instruments as a reclaim port
  set_target_properties(mlf_reclaim_${name} PROPERTIES MLF_RECLAIM_PORT_LIB ON)
endfunction()

foreach(iso ${MLF_ISO_VARIANTS})
  mlf_add_reclaim_port(${iso} ${iso})
endforeach()
# the reclaim target's port: a bug of the reclaim target (zoo/<bug>.patch
# "Expect: reclaim ...", on its Variant: or iso-throttle), or MLF_ISO
set(MLF_RECLAIM_PORT mlf_reclaim_${MLF_ISO})
if(MLF_BUG)
  mlf_zoo_expect(${MLF_BUG} reclaim mlf_check)
  if(mlf_check)
    mlf_zoo_field(${MLF_BUG} Variant mlf_iso)
    if(NOT mlf_iso)
      set(mlf_iso iso-throttle)
    endif()
    mlf_add_reclaim_port(${MLF_BUG} ${mlf_iso} ${MLF_BUG})
    set(MLF_RECLAIM_PORT mlf_reclaim_${MLF_BUG})
  endif()
endif()
