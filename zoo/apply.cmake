# SPDX-License-Identifier: GPL-2.0
# cmake -DBUG=bug-x -DPATCH=zoo/bug-x.patch -DSRC=<repo>/src -DDEST=<dir> -P apply.cmake
#
# Copies SRC to DEST/src and applies PATCH there with GNU patch, exactly
# (no fuzz): a patch that no longer applies stops the build with one line
# naming it, then patch's own report.
foreach(v BUG PATCH SRC DEST)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "apply.cmake: ${v} is not set")
  endif()
endforeach()

file(REMOVE_RECURSE ${DEST}/src.new)
file(MAKE_DIRECTORY ${DEST}/src.new)
file(COPY ${SRC}/ DESTINATION ${DEST}/src.new)
# paths in the patch are a/src/..., b/src/...: strip "a/src/"
execute_process(
  COMMAND patch -p2 --batch --forward --fuzz=0 --no-backup-if-mismatch
          --reject-file=- -d ${DEST}/src.new -i ${PATCH}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  file(REMOVE_RECURSE ${DEST}/src.new)
  message(FATAL_ERROR "mlf: zoo/${BUG}.patch no longer applies to src/\n${out}${err}")
endif()
file(REMOVE_RECURSE ${DEST}/src)
file(RENAME ${DEST}/src.new ${DEST}/src)
