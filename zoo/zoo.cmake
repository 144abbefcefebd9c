# SPDX-License-Identifier: GPL-2.0
# The bug zoo's build side. Each bug variant is one patch, zoo/<bug>.patch
# (zoo/README.md has the format): its diffs of the kernel tree's files
# (a/mm/vmscan.c, ...) go onto the tree's copy at its variant at configure
# time (kernel/tree.py), its diffs of src/ (the harness's models: the RCU
# model, the eviction model, ...) onto a copy of src/ at build time
# (kernel/patch_tree.py, the same applier); a patch that no longer applies
# fails with its hunk. Nothing under src/ knows about bugs.
#
#   mlf_zoo_bugs(OUT)                   every bug, by name (bug-...)
#   mlf_zoo_field(BUG FIELD OUT)        the first "FIELD: value" of its header
#   mlf_zoo_expect(BUG TARGET OUT)      the check expected on that target
#   mlf_zoo_tree(BUG OUT)               the patched copy's src/ (build time)
#   mlf_zoo_patches_shim(BUG OUT)       whether it patches the shim (src/kernel/)

set(MLF_ZOO_DIR ${CMAKE_SOURCE_DIR}/zoo)

function(mlf_zoo_bugs out)
  file(GLOB patches CONFIGURE_DEPENDS ${MLF_ZOO_DIR}/bug-*.patch)
  set(names "")
  foreach(p ${patches})
    get_filename_component(n ${p} NAME_WE)
    list(APPEND names ${n})
  endforeach()
  list(SORT names)
  set(${out} ${names} PARENT_SCOPE)
endfunction()

# the header is everything before the first "diff " line
function(_mlf_zoo_header bug out)
  set(patch ${MLF_ZOO_DIR}/${bug}.patch)
  if(NOT EXISTS ${patch})
    message(FATAL_ERROR "mlf: no bug variant ${bug} (zoo/${bug}.patch)")
  endif()
  file(STRINGS ${patch} lines REGEX "^([A-Z][A-Za-z-]*: |diff )")
  set(header "")
  foreach(l ${lines})
    if(l MATCHES "^diff ")
      break()
    endif()
    list(APPEND header "${l}")
  endforeach()
  set(${out} "${header}" PARENT_SCOPE)
endfunction()

function(mlf_zoo_field bug field out)
  _mlf_zoo_header(${bug} header)
  set(value "")
  foreach(l ${header})
    if(l MATCHES "^${field}: (.*)$")
      string(STRIP "${CMAKE_MATCH_1}" value)
      break()
    endif()
  endforeach()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

# "Expect: <target> <check>": the check <target> must report for <bug>
function(mlf_zoo_expect bug target out)
  _mlf_zoo_header(${bug} header)
  set(value "")
  foreach(l ${header})
    if(l MATCHES "^Expect: +${target} +([^ ]+)")
      set(value ${CMAKE_MATCH_1})
      break()
    endif()
  endforeach()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

# The patched sources of BUG: <build>/zoo/BUG/src, remade when the patch
# or any source changes. OUT is that directory; the files under it are
# the outputs of one custom command, which a port library depends on.
function(mlf_zoo_tree bug out)
  set(dest ${CMAKE_BINARY_DIR}/zoo/${bug})
  set(${out} ${dest}/src PARENT_SCOPE)
  if(TARGET mlf_zoo_tree_${bug})
    return()
  endif()
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS RELATIVE ${CMAKE_SOURCE_DIR}
       ${CMAKE_SOURCE_DIR}/src/*.c ${CMAKE_SOURCE_DIR}/src/*.h)
  set(outputs "")
  set(inputs "")
  foreach(s ${sources})
    list(APPEND outputs ${dest}/${s})
    list(APPEND inputs ${CMAKE_SOURCE_DIR}/${s})
  endforeach()
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/kernel/patch_tree.py --quiet
            --copy ${CMAKE_SOURCE_DIR}/src --out ${dest}/src --only src/
            ${MLF_ZOO_DIR}/${bug}.patch
    DEPENDS ${MLF_ZOO_DIR}/${bug}.patch ${CMAKE_SOURCE_DIR}/kernel/patch_tree.py ${inputs}
    COMMENT "Applying zoo/${bug}.patch's src/ diffs to a copy of src/"
    VERBATIM)
  add_custom_target(mlf_zoo_tree_${bug} DEPENDS ${outputs})
endfunction()

function(mlf_zoo_patches_shim bug out)
  file(STRINGS ${MLF_ZOO_DIR}/${bug}.patch hits REGEX "^[+][+][+] b/src/kernel/")
  if(hits)
    set(${out} ON PARENT_SCOPE)
  else()
    set(${out} OFF PARENT_SCOPE)
  endif()
endfunction()
