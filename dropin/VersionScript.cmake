# dropin/VersionScript.cmake
#
# pmapi_version_script(OUTPUT VERSIONS PREFIX [VERSIONS PREFIX ...])
#
# Writes to OUTPUT a GNU ld version script from one or more VERSIONS
# files, each of "NAME VERSION" lines read off one of PCP's libraries
# (read-versions.sh), with the PREFIX of its version nodes. For each file,
# every node PREFIX0 .. PREFIXn it names is written, each inheriting the
# one before, as PCP's libraries define them; a node holds the names the
# file gives it. Names the library does not define are left out by the
# linker, and a node left with no names is still defined. Everything else
# is local.
#
# Example:
#   pmapi_version_script(${CMAKE_CURRENT_BINARY_DIR}/libpcp.map
#                        ${CMAKE_CURRENT_SOURCE_DIR}/libpcp.versions PCP_3.)

# Appends to `out_var` the node chain of one VERSIONS file; `with_local`
# puts "local: *" in its first node.
function(_pmapi_version_chain versions prefix with_local out_var)
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
  set(text "${${out_var}}")
  foreach(minor RANGE 0 ${last})
    string(APPEND text "${prefix}${minor} {\n")
    if(DEFINED names_${minor})
      string(APPEND text "  global:\n${names_${minor}}")
    endif()
    if(minor EQUAL 0)
      if(with_local)
        string(APPEND text "  local:\n    *;\n")
      endif()
      string(APPEND text "}")
    else()
      math(EXPR before "${minor} - 1")
      string(APPEND text "} ${prefix}${before}")
    endif()
    string(APPEND text ";\n")
  endforeach()
  set(${out_var} "${text}" PARENT_SCOPE)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${versions})
endfunction()

function(pmapi_version_script output)
  set(pairs ${ARGN})
  set(text "")
  set(with_local TRUE)
  while(pairs)
    list(POP_FRONT pairs versions prefix)
    _pmapi_version_chain(${versions} ${prefix} ${with_local} text)
    set(with_local FALSE)
  endwhile()
  file(CONFIGURE OUTPUT ${output} CONTENT "${text}")
endfunction()
