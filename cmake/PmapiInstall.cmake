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
