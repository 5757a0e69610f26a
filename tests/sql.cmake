# SQL-level tests run by basalt-slt:
#   sql_features   every sqllogictest file under tests/sql/ (expectations made
#                  by the system sqlite3 with `basalt-slt --engine sqlite --complete`)
#   sql_differential  random queries (tests/diff/gen_queries.py) completed by
#                  the system sqlite3 at test time, then run on Basalt
#   slt_<set>      sets of the acceptance suite that Basalt passes; once a set
#                  passes it stays here for good.
# The archives live in ../shared/sqllogictest next to the checkout (or in
# /work/shared when the checkout is elsewhere).
set(_slt_default "${CMAKE_SOURCE_DIR}/../shared/sqllogictest")
if(NOT EXISTS "${_slt_default}/unpack.sh" AND EXISTS "/work/shared/sqllogictest/unpack.sh")
  set(_slt_default "/work/shared/sqllogictest")
endif()
set(BASALT_SLT_ARCHIVES "${_slt_default}" CACHE PATH
    "Folder holding the sqllogictest archives and unpack.sh")
if(NOT EXISTS "${BASALT_SLT_ARCHIVES}/unpack.sh")
  message(WARNING "sqllogictest archives not found in ${BASALT_SLT_ARCHIVES}: "
                  "the slt_* tests are not registered")
endif()
set(BASALT_SLT_DIR "${CMAKE_BINARY_DIR}/slt" CACHE PATH "Where the suite is unpacked")

add_test(NAME sql_features
         COMMAND basalt-slt --jobs 2 ${CMAKE_SOURCE_DIR}/tests/sql)

# Differential: 20,000 random queries (joins incl. RIGHT/FULL, windows, CTEs,
# subqueries, aggregates) answered by the system SQLite, then by Basalt.
add_test(NAME sql_differential
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/diff/run.sh $<TARGET_FILE:basalt-slt> 1 10 2000
                 ${CMAKE_BINARY_DIR}/diff)
set_tests_properties(sql_differential PROPERTIES TIMEOUT 600)

if(EXISTS "${BASALT_SLT_ARCHIVES}/unpack.sh")
  add_test(NAME slt_unpack
           COMMAND sh ${BASALT_SLT_ARCHIVES}/unpack.sh ${BASALT_SLT_DIR})
  set_tests_properties(slt_unpack PROPERTIES FIXTURES_SETUP slt_files)

  # The core set: select1..5 and evidence/.
  add_test(NAME slt_core
           COMMAND basalt-slt --jobs 2
                   ${BASALT_SLT_DIR}/select1.test ${BASALT_SLT_DIR}/select2.test
                   ${BASALT_SLT_DIR}/select3.test ${BASALT_SLT_DIR}/select4.test
                   ${BASALT_SLT_DIR}/select5.test ${BASALT_SLT_DIR}/evidence)
  set_tests_properties(slt_core PROPERTIES FIXTURES_REQUIRED slt_files TIMEOUT 1200)

  # The same results with the compiler's passes switched off (passes.h).
  add_test(NAME sql_passes_off
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/passes_off.sh $<TARGET_FILE:basalt-slt>
                   ${CMAKE_SOURCE_DIR} ${BASALT_SLT_DIR})
  set_tests_properties(sql_passes_off PROPERTIES FIXTURES_REQUIRED slt_files TIMEOUT 1200)

  # Every tenth file of index/ and random/: the CI-sized sample of the rest.
  add_test(NAME slt_sample
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/slt_sample.sh $<TARGET_FILE:basalt-slt>
                   ${BASALT_SLT_DIR})
  set_tests_properties(slt_sample PROPERTIES FIXTURES_REQUIRED slt_files TIMEOUT 1500)

  # The whole suite: a separate target, not part of ctest (it takes long).
  add_custom_target(conformance
    COMMAND sh ${BASALT_SLT_ARCHIVES}/unpack.sh ${BASALT_SLT_DIR}
    COMMAND basalt-slt --jobs 2 ${BASALT_SLT_DIR}
    DEPENDS basalt-slt basalt
    USES_TERMINAL)
  add_custom_target(conformance-compare
    COMMAND sh ${BASALT_SLT_ARCHIVES}/unpack.sh ${BASALT_SLT_DIR}
    COMMAND basalt-slt --engine both --jobs 2 ${BASALT_SLT_DIR}
    DEPENDS basalt-slt basalt
    USES_TERMINAL)
endif()

# The shell against the system sqlite3: byte-identical output on tests/shell/*.sql
# and *.cmd.
add_test(NAME shell_compare
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/shell/compare.sh $<TARGET_FILE:basalt-shell>)
# Debian's own sqlite3 shell loading Basalt's library (LD_LIBRARY_PATH) against
# the same shell on the system library, over the same cases.
add_test(NAME system_shell_on_basalt
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/shell/system_shell.sh $<TARGET_FILE:basalt>
                 ${CMAKE_BINARY_DIR}/system_shell)
# EXPLAIN layout: the shell against Debian's sqlite3 on Basalt's library (same programs).
add_test(NAME shell_explain_layout
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/shell/explain_layout.sh $<TARGET_FILE:basalt-shell>
                 $<TARGET_FILE:basalt> ${CMAKE_BINARY_DIR}/explain_layout)
# The shell at a terminal (pseudo-terminal): prompts, Ctrl-C, Ctrl-D, history.
add_test(NAME shell_terminal
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/shell/terminal.py $<TARGET_FILE:basalt-shell>)

# Tests for features not built yet (see tests/sql-pending/README.md): not in
# ctest, run on demand.
add_custom_target(sql-pending
  COMMAND basalt-slt --jobs 2 ${CMAKE_SOURCE_DIR}/tests/sql-pending
  DEPENDS basalt-slt basalt
  USES_TERMINAL)

# Database files exchanged with the system sqlite3 (tests/interop/run.sh).
add_test(NAME file_interop
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/interop/run.sh $<TARGET_FILE:basalt-shell>)

# integrity_check's CHECK and expression / partial / VIRTUAL-column index
# checks on a file sqlite3 made inconsistent (tests/interop/integrity_expr.sh).
add_test(NAME integrity_expr
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/interop/integrity_expr.sh $<TARGET_FILE:basalt-shell>)

# TLP / NoREC oracles on Basalt alone, a bounded slice (tools/oracle).
add_test(NAME tlp_norec_slice
         COMMAND sh ${CMAKE_SOURCE_DIR}/tools/oracle/ci_slice.sh $<TARGET_FILE:basalt> 100 100 300)
