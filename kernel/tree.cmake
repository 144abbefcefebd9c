# SPDX-License-Identifier: GPL-2.0
# The code under test: the memcg LRU of a kernel tree (MLF_KERNEL_TREE: a
# tarball, a kernel tree or a tree recipe such as kernel/trees/mm-new/; by
# default Debian's linux-source-6.12, which tools/mlf setup installs), with
# the seed series applied up to each variant's level and the user's patches
# (MLF_PATCHES) on top, cut into <build>/kernel/ at configure time by
# kernel/tree.py, one process: the copies in kernel/tree/<name>/, the cuts
# in kernel/cut/<name>/, and manifest.cmake, included here. A change to the
# tree, a patch or the cutter configures again.
#
# With user patches the build has one variant, MLF_VARIANT (default
# v6.12: the patches are on the tree as it is); without, every variant
# whose patches apply (on the default tree all of them must, and every
# zoo bug's: a patch that no longer applies fails the configure with its
# hunk). Sets MLF_CORRECT_VARIANTS, MLF_TREE_* (manifest.cmake), MLF_CUT,
# the cut of MLF_VARIANT, for what is built once per build, and
# MLF_DEFAULT_CODE: whether this is the default tree as it is.

set(MLF_DEFAULT_TREE /usr/src/linux-source-6.12.tar.xz)
set(MLF_KERNEL_TREE "${MLF_DEFAULT_TREE}" CACHE STRING
    "Kernel tree (tarball, directory or tree recipe) whose memcg LRU is the code under test")
set(MLF_PATCHES "" CACHE STRING
    "Patch files (;-list, in order) applied to the tree at MLF_VARIANT: a user's series")
if(NOT MLF_KERNEL_TREE)
  message(FATAL_ERROR "mlf: no kernel tree: install linux-source-6.12 (tools/mlf setup) "
                      "or set MLF_KERNEL_TREE")
endif()
get_filename_component(mlf_tree "${MLF_KERNEL_TREE}" ABSOLUTE BASE_DIR ${CMAKE_SOURCE_DIR})
if(NOT EXISTS "${mlf_tree}")
  if(mlf_tree STREQUAL MLF_DEFAULT_TREE)
    message(FATAL_ERROR "mlf: no kernel tree at ${mlf_tree}: install Debian's linux-source-6.12 "
                        "(tools/mlf setup) or set MLF_KERNEL_TREE")
  endif()
  message(FATAL_ERROR "mlf: MLF_KERNEL_TREE ${mlf_tree}: no such tree or tarball")
endif()

set(mlf_tree_args --tree ${mlf_tree} --out ${CMAKE_BINARY_DIR}/kernel
    --need ${MLF_VARIANT} --zoo ${CMAKE_SOURCE_DIR}/zoo --check ${CMAKE_C_COMPILER} --quiet)
if(MLF_PATCHES)
  list(APPEND mlf_tree_args --variants ${MLF_VARIANT})
  foreach(p ${MLF_PATCHES})
    get_filename_component(p "${p}" ABSOLUTE BASE_DIR ${CMAKE_SOURCE_DIR})
    list(APPEND mlf_tree_args --patches ${p})
  endforeach()
else()
  string(REPLACE ";" "," mlf_variants "${MLF_ALL_VARIANTS}")
  list(APPEND mlf_tree_args --variants ${mlf_variants})
  if(mlf_tree STREQUAL MLF_DEFAULT_TREE)
    list(APPEND mlf_tree_args --strict)
  endif()
endif()
execute_process(
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/kernel/tree.py ${mlf_tree_args}
  RESULT_VARIABLE mlf_rc OUTPUT_VARIABLE mlf_out ERROR_VARIABLE mlf_err)
if(NOT mlf_rc EQUAL 0)
  string(STRIP "${mlf_err}" mlf_err)
  message(FATAL_ERROR "${mlf_err}")
endif()
string(STRIP "${mlf_out}" mlf_out)
message(STATUS "${mlf_out}")
include(${CMAKE_BINARY_DIR}/kernel/manifest.cmake)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${MLF_TREE_INPUTS})
set(MLF_CORRECT_VARIANTS ${MLF_TREE_VARIANTS})
set(MLF_CUT ${MLF_TREE_CUT_${MLF_VARIANT}})
# the default tree as it is: what the shipped corpus, the zoo's
# reproducers and its "caught" tests were made on
if(mlf_tree STREQUAL MLF_DEFAULT_TREE AND NOT MLF_PATCHES)
  set(MLF_DEFAULT_CODE ON)
else()
  set(MLF_DEFAULT_CODE OFF)
endif()
