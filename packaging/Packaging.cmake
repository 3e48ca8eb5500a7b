# packaging/Packaging.cmake: how libpmapi is installed and packaged.
#
# Included once from the top-level CMakeLists.txt, after every target is
# defined, because it reads the finished `pmapi` target (its objects and its
# link interface) to make the static library, the pkg-config file and the
# CMake package. It adds:
#   - pmapi_static: libpmapi.a archived from the shared library's objects;
#   - the export sets pmapiTargets (pmapi::pmapi) and pmapiStaticTargets
#     (pmapi::pmapi_static) with pmapiConfig.cmake and its version file;
#   - pmapi.pc for pkg-config;
#   - the man pages of the library and of the tools this tree builds;
#   - CPack settings for the .deb and .tar.gz packages (packaging/CPack.cmake);
#   - the package tests (tests/package) when tests are built.
#
# Example (from the build tree):
#   cmake --install build --prefix /tmp/root/usr
#   cpack --config build/CPackConfig.cmake -G DEB
include(CMakePackageConfigHelpers)

set(PMAPI_CMAKE_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/pmapi)

# Lets a project that adds this tree with add_subdirectory use the same name
# as one that finds the installed package.
add_library(pmapi::pmapi ALIAS pmapi)

# ---- The static library ----
# Archiving the shared library's objects (all position independent) keeps
# one compilation of every source; the link interface is copied from
# `pmapi` so the two never drift apart. Dependencies that are private to the
# shared library become link-only dependencies of the archive. Abseil is
# linked as Debian's shared libraries by the archive's users.
add_library(pmapi_static STATIC $<TARGET_OBJECTS:pmapi>)
get_target_property(PMAPI_PUBLIC_DEPS pmapi PMAPI_INSTALLED_PUBLIC_DEPS)
get_target_property(PMAPI_PRIVATE_DEPS pmapi PMAPI_INSTALLED_PRIVATE_DEPS)
get_target_property(PMAPI_INCLUDE_DIRS pmapi INTERFACE_INCLUDE_DIRECTORIES)
target_link_libraries(pmapi_static PUBLIC ${PMAPI_PUBLIC_DEPS} PRIVATE ${PMAPI_PRIVATE_DEPS})
target_include_directories(pmapi_static INTERFACE ${PMAPI_INCLUDE_DIRS})
target_compile_features(pmapi_static PUBLIC cxx_std_20)
set_target_properties(pmapi_static PROPERTIES OUTPUT_NAME pmapi EXPORT_NAME pmapi_static)
add_library(pmapi::pmapi_static ALIAS pmapi_static)
install(TARGETS pmapi_static EXPORT pmapiStaticTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# ---- The CMake package: find_package(pmapi [COMPONENTS static]) ----
install(EXPORT pmapiTargets NAMESPACE pmapi:: DESTINATION ${PMAPI_CMAKE_PACKAGE_DIR}
        COMPONENT development)
install(EXPORT pmapiStaticTargets NAMESPACE pmapi:: DESTINATION ${PMAPI_CMAKE_PACKAGE_DIR}
        COMPONENT development)
set(PMAPI_PMCDCONF_INSTALLED ${CMAKE_INSTALL_DATADIR}/pmapi/pmdas/pmcd.conf)
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/pmapiConfig.cmake.in
  ${PROJECT_BINARY_DIR}/packaging/pmapiConfig.cmake
  INSTALL_DESTINATION ${PMAPI_CMAKE_PACKAGE_DIR}
  PATH_VARS PMAPI_PMCDCONF_INSTALLED)
# 0.x releases may change the API at every minor version.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/packaging/pmapiConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/packaging/pmapiConfig.cmake
              ${PROJECT_BINARY_DIR}/packaging/pmapiConfigVersion.cmake
        DESTINATION ${PMAPI_CMAKE_PACKAGE_DIR} COMPONENT development)

# ---- pkg-config ----
# pmapi_pkgconfig_flags(OUT_MODULES OUT_LIBS DEPS...)
# Translates CMake link dependencies into pkg-config module names and plain
# linker flags. An unknown dependency stops the configuration, so a new
# dependency of `pmapi` cannot be dropped from pmapi.pc unnoticed.
function(pmapi_pkgconfig_flags out_modules out_libs)
  set(modules "")
  set(libs "")
  foreach(dep ${ARGN})
    if(dep MATCHES "^absl::(.+)$")
      list(APPEND modules "absl_${CMAKE_MATCH_1}")
    elseif(dep STREQUAL "LibLZMA::LibLZMA")
      list(APPEND modules liblzma)
    elseif(dep STREQUAL "OpenSSL::SSL")
      list(APPEND modules libssl)
    elseif(dep STREQUAL "Threads::Threads")
      list(APPEND libs -pthread)
    elseif(dep MATCHES "^[A-Za-z0-9_]+$")
      list(APPEND libs "-l${dep}")
    else()
      message(FATAL_ERROR "pmapi.pc: no pkg-config form for dependency '${dep}'")
    endif()
  endforeach()
  list(JOIN modules ", " modules)
  list(JOIN libs " " libs)
  set(${out_modules} "${modules}" PARENT_SCOPE)
  set(${out_libs} "${libs}" PARENT_SCOPE)
endfunction()

# Returns in OUT the pkg-config form of an install directory: relative to
# ${prefix} when it is under the prefix. The prefix itself is found from
# the file's own directory (${pcfiledir}), so a moved installation needs no
# flags.
function(pmapi_pkgconfig_dir out dir)
  if(IS_ABSOLUTE "${dir}")
    set(${out} "${dir}" PARENT_SCOPE)
  else()
    set(${out} "\${prefix}/${dir}" PARENT_SCOPE)
  endif()
endfunction()

pmapi_pkgconfig_flags(PMAPI_PC_REQUIRES PMAPI_PC_LIBS ${PMAPI_PUBLIC_DEPS})
pmapi_pkgconfig_flags(PMAPI_PC_REQUIRES_PRIVATE PMAPI_PC_LIBS_PRIVATE ${PMAPI_PRIVATE_DEPS})
# A static link also needs the C++ runtime and libm, which a C program's
# link (cc) does not add by itself.
string(APPEND PMAPI_PC_LIBS_PRIVATE " -lstdc++ -lm")
pmapi_pkgconfig_dir(PMAPI_PC_LIBDIR ${CMAKE_INSTALL_LIBDIR})
pmapi_pkgconfig_dir(PMAPI_PC_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR})
pmapi_pkgconfig_dir(PMAPI_PC_DATADIR ${CMAKE_INSTALL_DATADIR})
file(RELATIVE_PATH PMAPI_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" PMAPI_PC_TO_PREFIX "${PMAPI_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/pmapi.pc.in ${PROJECT_BINARY_DIR}/packaging/pmapi.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/packaging/pmapi.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT development)

# ---- Man pages ----
# A tool's page is installed only with the tool, so a package never carries
# the manual of a program it lacks. Tools installed in a directory of their
# own (under the prefix /usr) keep their pages apart from PCP's: in
# share/pmapi/man, which man finds for a PATH that holds the tools'
# directory, through the link TOOLDIR/../man.
pmapi_install_man(${PROJECT_SOURCE_DIR}/man/libpmapi.3 ${CMAKE_INSTALL_MANDIR}/man3 development)
pmapi_install_man(${PROJECT_SOURCE_DIR}/man/pmda.3 ${CMAKE_INSTALL_MANDIR}/man3 development)
if(PMAPI_INSTALL_TOOLDIR STREQUAL CMAKE_INSTALL_BINDIR)
  set(PMAPI_TOOL_MANDIR ${CMAKE_INSTALL_MANDIR})
else()
  set(PMAPI_TOOL_MANDIR ${CMAKE_INSTALL_DATADIR}/pmapi/man)
  get_filename_component(PMAPI_TOOL_PARENT ${PMAPI_INSTALL_TOOLDIR} DIRECTORY)
  file(RELATIVE_PATH PMAPI_MAN_LINK ${CMAKE_INSTALL_PREFIX}/${PMAPI_TOOL_PARENT}
       ${CMAKE_INSTALL_PREFIX}/${PMAPI_TOOL_MANDIR})
  file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/packaging/links)
  file(CREATE_LINK ${PMAPI_MAN_LINK} ${PROJECT_BINARY_DIR}/packaging/links/man SYMBOLIC)
  install(FILES ${PROJECT_BINARY_DIR}/packaging/links/man DESTINATION ${PMAPI_TOOL_PARENT} COMPONENT tools)
endif()
foreach(tool pminfo pmdumplog pmval pmstore)
  if(TARGET ${tool})
    pmapi_install_man(${PROJECT_SOURCE_DIR}/man/${tool}.1 ${PMAPI_TOOL_MANDIR}/man1 tools)
  endif()
endforeach()
# Pages named after PCP's own functions (pmFetch(3), pmdaInit(3), ...)
# would take the place of PCP's pages of the same name (libpcp3-dev), so
# they go where the tools' pages go; a page that documents several
# functions is installed once and linked under the other names. The pages
# of the C++ headers (pmapi-*.3) have names of their own and go with
# libpmapi(3).
file(GLOB PMAPI_MAN3_PAGES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/man/man3/*.3)
foreach(page IN LISTS PMAPI_MAN3_PAGES)
  get_filename_component(name ${page} NAME)
  if(name MATCHES "^pmapi-")
    pmapi_install_man_group(${page} ${CMAKE_INSTALL_MANDIR}/man3 development)
  else()
    pmapi_install_man_group(${page} ${PMAPI_TOOL_MANDIR}/man3 development)
  endif()
endforeach()
# pmevent's page is pmval's (one page names both), as a link.
if(TARGET pmval)
  file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/packaging/links)
  file(CREATE_LINK pmval.1.gz ${PROJECT_BINARY_DIR}/packaging/links/pmevent.1.gz SYMBOLIC)
  install(FILES ${PROJECT_BINARY_DIR}/packaging/links/pmevent.1.gz DESTINATION ${PMAPI_TOOL_MANDIR}/man1
          COMPONENT tools)
endif()

include(${CMAKE_CURRENT_LIST_DIR}/CPack.cmake)

if(PMAPI_BUILD_TESTS)
  add_subdirectory(${PROJECT_SOURCE_DIR}/tests/package ${PROJECT_BINARY_DIR}/tests/package)
endif()
