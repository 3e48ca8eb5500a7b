# pmapi_install_man(PAGE DESTINATION COMPONENT)
#
# Installs the manual page PAGE into DESTINATION (relative to the prefix)
# as part of the install component COMPONENT, compressed with gzip -9n as
# Debian policy wants it (man reads compressed pages everywhere). The
# compressed copy is made when the project is built.
#
# Example:
#   pmapi_install_man(${PROJECT_SOURCE_DIR}/man/pminfo.1 ${CMAKE_INSTALL_MANDIR}/man1 tools)
function(pmapi_install_man page destination component)
  get_filename_component(name ${page} NAME)
  set(compressed ${PROJECT_BINARY_DIR}/man/${name}.gz)
  add_custom_command(OUTPUT ${compressed}
                     COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
                     COMMAND sh -c "gzip -9nc \"$0\" > \"$1\"" ${page} ${compressed}
                     DEPENDS ${page} VERBATIM)
  string(MAKE_C_IDENTIFIER "man_${name}" target)
  add_custom_target(${target} ALL DEPENDS ${compressed})
  install(FILES ${compressed} DESTINATION ${destination} COMPONENT ${component})
endfunction()

# pmapi_man_page_names(PAGE OUT_VAR)
#
# Sets OUT_VAR to the list of names a man page documents: the
# comma-separated names of its NAME section, before the `\-` that starts
# the description (the line may wrap).
#
# Example:
#   pmapi_man_page_names(${PROJECT_SOURCE_DIR}/man/man3/pmFetch.3 names)
#   # names: pmFetch;pmFetchHighRes;pmHighResFetch
function(pmapi_man_page_names page out_var)
  file(STRINGS ${page} lines)
  set(in_name FALSE)
  set(text "")
  foreach(line IN LISTS lines)
    if(line STREQUAL ".SH NAME")
      set(in_name TRUE)
    elseif(in_name)
      string(APPEND text " ${line}")
      if(line MATCHES "[ \t]\\\\-")
        break()
      endif()
    endif()
  endforeach()
  # The description starts at a `\-` after white space; a `\-` inside a
  # name (pmapi\-context) is the name's hyphen.
  string(REGEX REPLACE "[ \t]\\\\-.*" "" text "${text}")
  string(REPLACE "\\-" "-" text "${text}")
  string(REPLACE "," ";" text "${text}")
  set(names "")
  foreach(name IN LISTS text)
    string(STRIP "${name}" name)
    if(NOT name STREQUAL "")
      list(APPEND names ${name})
    endif()
  endforeach()
  set(${out_var} ${names} PARENT_SCOPE)
endfunction()

# pmapi_install_man_group(PAGE DESTINATION COMPONENT)
#
# Installs PAGE as pmapi_install_man does, and a link to it under every
# other name its NAME section lists (pmFetchHighRes.3.gz -> pmFetch.3.gz).
function(pmapi_install_man_group page destination component)
  pmapi_install_man(${page} ${destination} ${component})
  get_filename_component(name ${page} NAME)
  string(REGEX MATCH "[0-9]$" section ${name})
  string(REGEX REPLACE "\\.[0-9]$" "" first ${name})
  pmapi_man_page_names(${page} names)
  set(linkdir ${PROJECT_BINARY_DIR}/man/links)
  file(MAKE_DIRECTORY ${linkdir})
  foreach(other IN LISTS names)
    if(NOT other STREQUAL first)
      file(CREATE_LINK ${name}.gz ${linkdir}/${other}.${section}.gz SYMBOLIC)
      install(FILES ${linkdir}/${other}.${section}.gz DESTINATION ${destination} COMPONENT ${component})
    endif()
  endforeach()
endfunction()
