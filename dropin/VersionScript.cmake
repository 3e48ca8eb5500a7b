# dropin/VersionScript.cmake
#
# pmapi_version_script(VERSIONS OUTPUT PREFIX)
#
# Writes to OUTPUT a GNU ld version script from VERSIONS, a file of
# "NAME VERSION" lines read off one of PCP's libraries (read-versions.sh).
# Every version node PREFIX0 .. PREFIXn that the file names is written,
# each inheriting the one before, as PCP's libraries define them; a node
# holds the names the file gives it. Names the library does not define are
# left out by the linker. Everything else is local.
#
# Example:
#   pmapi_version_script(${CMAKE_CURRENT_SOURCE_DIR}/libpcp.versions
#                        ${CMAKE_CURRENT_BINARY_DIR}/libpcp.map PCP_3.)
function(pmapi_version_script versions output prefix)
  file(STRINGS ${versions} lines)
  set(last 0)
  foreach(line ${lines})
    string(REPLACE " " ";" fields "${line}")
    list(GET fields 0 name)
    list(GET fields 1 version)
    string(REPLACE "${prefix}" "" minor "${version}")
    if(NOT minor MATCHES "^[0-9]+$")
      message(FATAL_ERROR "${versions}: version ${version} is not ${prefix}N")
    endif()
    string(APPEND names_${minor} "    ${name};\n")
    if(minor GREATER last)
      set(last ${minor})
    endif()
  endforeach()
  set(text "")
  foreach(minor RANGE 0 ${last})
    string(APPEND text "${prefix}${minor} {\n")
    if(DEFINED names_${minor})
      string(APPEND text "  global:\n${names_${minor}}")
    endif()
    if(minor EQUAL 0)
      string(APPEND text "  local:\n    *;\n}")
    else()
      math(EXPR before "${minor} - 1")
      string(APPEND text "} ${prefix}${before}")
    endif()
    string(APPEND text ";\n")
  endforeach()
  file(CONFIGURE OUTPUT ${output} CONTENT "${text}")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${versions})
endfunction()
