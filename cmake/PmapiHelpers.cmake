# pmapi_add_test(NAME SOURCES... [LIBS ...])
# One GoogleTest binary per component, registered with CTest through
# gtest_discover_tests. Tests find their data through PMAPI_TEST_DATA_DIR.
function(pmapi_add_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  # pmtools_common before pmapi: the tools' layer leaves the choice of the
  # library (shared here, static in the tools) to the program, and the
  # linker drops a shared library named before the code that needs it.
  target_link_libraries(${name} PRIVATE pmtools_common pmapi GTest::gtest GTest::gtest_main GTest::gmock ${ARG_LIBS})
  target_include_directories(${name} PRIVATE ${PMAPI_PRIVATE_INCLUDE_DIRS})
  target_compile_definitions(${name} PRIVATE
    PMAPI_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data"
    PMAPI_SHARED_DIR="${PROJECT_SOURCE_DIR}/../shared")
  # The oracle tables and golden outputs were made without PCP's default
  # derived metrics; tests that want them set their own environment.
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60
    PROPERTIES LABELS unit ENVIRONMENT "PCP_DERIVED_CONFIG=")
endfunction()
