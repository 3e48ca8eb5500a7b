# packaging/CPack.cmake: the .deb and .tar.gz packages of libpmapi.
#
# Included by packaging/Packaging.cmake. The .deb holds everything `cmake
# --install` installs (library, headers, tools, man pages, local context
# configuration) under CMAKE_INSTALL_PREFIX, the prefix compiled into the
# library as the home of its default configuration; its run-time
# dependencies are computed by dpkg-shlibdeps from the binaries themselves.
# The .tar.gz holds the same files relative to the prefix.
#
# Example:
#   cmake -S . -B build -G Ninja -DCMAKE_INSTALL_PREFIX=/usr
#   cmake --build build && cpack --config build/CPackConfig.cmake -G DEB
set(PMAPI_PACKAGE_CONTACT "libpmapi maintainers <maintainers@users.noreply.a-seed-fd9e715d.example>"
    CACHE STRING "Maintainer named in the .deb package")

set(CPACK_PACKAGE_NAME libpmapi)
set(CPACK_PACKAGE_VENDOR libpmapi)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT ${PMAPI_PACKAGE_CONTACT})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "C++ client library and tools for Performance Co-Pilot metrics")
set(CPACK_PACKAGE_DESCRIPTION
    "An independent C++20 implementation of the Performance Co-Pilot client side: the PMAPI library (contexts on archives, hosts and in-process agents) and the tools pminfo, pmdumplog, pmval and pmstore, whose output matches PCP 6.0.3.")
set(CPACK_GENERATOR "DEB;TGZ")
# Executables and the shared library ship without debug information (the
# static archive keeps its symbols: install only runs ranlib on it).
set(CPACK_STRIP_FILES ON)
# Generator-specific settings (the install prefix) live in a file CPack
# reads once per generator.
configure_file(${CMAKE_CURRENT_LIST_DIR}/CPackOptions.cmake.in
               ${PROJECT_BINARY_DIR}/packaging/CPackOptions.cmake @ONLY)
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_BINARY_DIR}/packaging/CPackOptions.cmake)

# ---- .deb ----
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The tools need libpmapi.so.0, which no installed package provides yet:
# dpkg-shlibdeps finds it in the build tree.
get_target_property(PMAPI_LIBRARY_DIR pmapi LIBRARY_OUTPUT_DIRECTORY)
if(NOT PMAPI_LIBRARY_DIR)
  get_target_property(PMAPI_LIBRARY_DIR pmapi BINARY_DIR)
endif()
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PMAPI_LIBRARY_DIR})
# A shlibs file for packages built against this one, and the ldconfig
# trigger every package that installs a shared library needs.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_LIST_DIR}/deb/triggers)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# The public headers include Abseil's headers.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libabsl-dev")
# Installed into /usr, the tools take the paths of PCP's own tools.
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(CPACK_DEBIAN_PACKAGE_CONFLICTS "pcp")
endif()

include(CPack)
