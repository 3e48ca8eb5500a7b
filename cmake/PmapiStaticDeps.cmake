# pmapi_static_twins(OUT TARGET...)
#
# Sets OUT to targets that link the static archives of the imported shared
# libraries TARGET... (and of their imported dependencies) instead of the
# shared objects: for each library, the `.a` beside its `.so` (Debian ships
# both, the archives built position independent). Header-only targets and
# plain linker flags in a link interface are kept as they are. A library
# with no archive beside it stops the configuration.
#
# Used to link Abseil into libpmapi.so and the tools, so a program does not
# load some forty small shared objects at startup.
#
# Example:
#   pmapi_static_twins(ABSL_STATIC absl::status absl::strings)
#   target_link_libraries(mylib PRIVATE ${ABSL_STATIC})
function(pmapi_static_twins out)
  set(twins "")
  foreach(target ${ARGN})
    _pmapi_static_twin(twin ${target})
    list(APPEND twins ${twin})
  endforeach()
  set(${out} ${twins} PARENT_SCOPE)
endfunction()

# _pmapi_static_twin(OUT TARGET): the twin of one target, made on first use.
function(_pmapi_static_twin out target)
  string(MAKE_C_IDENTIFIER "${target}" id)
  set(twin pmapi_static_${id})
  set(${out} ${twin} PARENT_SCOPE)
  if(TARGET ${twin})
    return()
  endif()
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    add_library(${twin} INTERFACE IMPORTED GLOBAL)
  else()
    get_target_property(location ${target} LOCATION)
    string(REGEX REPLACE "\\.so(\\.[0-9]+)*$" ".a" archive "${location}")
    if(NOT archive MATCHES "\\.a$" OR NOT EXISTS "${archive}")
      message(FATAL_ERROR "${target}: no static archive beside ${location}")
    endif()
    add_library(${twin} STATIC IMPORTED GLOBAL)
    set_target_properties(${twin} PROPERTIES IMPORTED_LOCATION "${archive}")
  endif()
  foreach(property INTERFACE_INCLUDE_DIRECTORIES INTERFACE_COMPILE_DEFINITIONS INTERFACE_COMPILE_OPTIONS)
    get_target_property(value ${target} ${property})
    if(value)
      set_target_properties(${twin} PROPERTIES ${property} "${value}")
    endif()
  endforeach()
  get_target_property(deps ${target} INTERFACE_LINK_LIBRARIES)
  if(NOT deps)
    set(deps "")
  endif()
  set(twin_deps "")
  foreach(dep ${deps})
    if(TARGET "${dep}")
      get_target_property(imported ${dep} IMPORTED)
      get_target_property(dep_type ${dep} TYPE)
      if(imported AND dep_type MATCHES "^(SHARED_LIBRARY|UNKNOWN_LIBRARY|INTERFACE_LIBRARY)$"
         AND NOT dep MATCHES "^Threads::")
        _pmapi_static_twin(dep ${dep})
      endif()
    endif()
    list(APPEND twin_deps "${dep}")
  endforeach()
  if(twin_deps)
    set_target_properties(${twin} PROPERTIES INTERFACE_LINK_LIBRARIES "${twin_deps}")
  endif()
endfunction()
