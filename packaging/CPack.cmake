# packaging/CPack.cmake: the Debian packages and the .tar.gz of libpmapi.
#
# Included by packaging/Packaging.cmake. Every install rule belongs to one
# of five components, and each component is one .deb:
#   common       libpmapi-common  the local context's default
#                              configuration, agents' help and name spaces
#                              (share/pmapi), for the library and the tools
#   runtime      libpmapi0     the shared library
#   development  libpmapi-dev  C++ headers, C headers in include/pmapi-compat,
#                              libpmapi.so, libpmapi.a, pkg-config and CMake
#                              packages, section 3 manual pages
#   tools        pmapi-tools   pminfo, pmdumplog, pmval, pmstore in
#                              lib/pmapi/bin (linked with the library
#                              statically), their pages in share/pmapi/man
#   dropin       pmapi-dropin  libpcp.so.3 in LIBDIR/pmapi/pcp and
#                              pmapi-run (docs/dropin.md)
# None holds a file of Debian's pcp, libpcp3-dev or libpcp-pmda3-dev, so all
# five install beside them (docs/packaging.md). The .tar.gz holds every
# component, relative to the prefix.
#
# Example:
#   cmake -S . -B build -G Ninja -DCMAKE_INSTALL_PREFIX=/usr
#   cmake --build build && cpack --config build/CPackConfig.cmake -G DEB
set(PMAPI_PACKAGE_CONTACT "libpmapi maintainers <maintainers@users.noreply.a-seed-fd9e715d.example>"
    CACHE STRING "Maintainer named in the .deb packages")

set(CPACK_PACKAGE_NAME libpmapi)
set(CPACK_PACKAGE_VENDOR libpmapi)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT ${PMAPI_PACKAGE_CONTACT})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "C++ client library and tools for Performance Co-Pilot metrics")
set(CPACK_PACKAGE_DESCRIPTION
    "An independent C++20 implementation of the Performance Co-Pilot client
side: the PMAPI library (contexts on archives, hosts and in-process
agents) and the tools pminfo, pmdumplog, pmval and pmstore, whose output
matches PCP 6.0.3.")
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_COMPONENTS_ALL common runtime development tools dropin)
# Executables and the shared library ship without debug information (the
# static archive keeps its symbols: install only runs ranlib on it).
set(CPACK_STRIP_FILES ON)
# Generator-specific settings (the install prefix) live in a file CPack
# reads once per generator.
configure_file(${CMAKE_CURRENT_LIST_DIR}/CPackOptions.cmake.in
               ${PROJECT_BINARY_DIR}/packaging/CPackOptions.cmake @ONLY)
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_BINARY_DIR}/packaging/CPackOptions.cmake)

# ---- .deb: one package per component ----
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_PACKAGE_SOURCE libpmapi)
set(PMAPI_DEB_EXACT "(= ${PROJECT_VERSION})")

set(CPACK_DEBIAN_COMMON_PACKAGE_NAME libpmapi-common)
set(CPACK_DEBIAN_COMMON_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_COMMON_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_COMMON_DESCRIPTION
    "Performance Co-Pilot client library in C++ (configuration)
${CPACK_PACKAGE_DESCRIPTION}
This package holds the default configuration of the library's local
contexts: the agent list (pmcd.conf), and the help text and name space of
the in-process Linux agent.")

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libpmapi0)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS "libpmapi-common ${PMAPI_DEB_EXACT}")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
# Archive volumes compressed with bzip2, gzip or zstd are read through
# those programs, as PCP reads them (gzip is essential in Debian).
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "bzip2, zstd")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
    "Performance Co-Pilot client library in C++ (runtime)
${CPACK_PACKAGE_DESCRIPTION}
This package holds the shared library libpmapi.so.0, and in
/usr/lib/<triplet>/pmapi/nodes two libraries that only define PCP's
symbol versions, named libpcp.so.3 and libpcp_pmda.so.3: PCP's compiled
agents, loaded into a local context, bind to libpmapi through them.")
# A shlibs file for packages built against this one, and the ldconfig
# trigger every package that installs a shared library needs.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_LIST_DIR}/deb/triggers)

set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME libpmapi-dev)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
# The public headers include Abseil's; the static library needs liblzma.
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS "libpmapi0 ${PMAPI_DEB_EXACT}, libabsl-dev, liblzma-dev, libssl-dev, libsasl2-dev")
set(CPACK_DEBIAN_DEVELOPMENT_DESCRIPTION
    "Performance Co-Pilot client library in C++ (development files)
${CPACK_PACKAGE_DESCRIPTION}
This package holds the C++ headers (pmapi/*.h), PCP's C interface
(pcp/pmapi.h, pcp/pmda.h) in /usr/include/pmapi-compat, where they do
not replace PCP's own, the static library, and the pkg-config and CMake
packages that put both header directories on the include path.")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME pmapi-tools)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SHLIBDEPS ON)
# The tools carry the library; they read its configuration.
set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS "libpmapi-common ${PMAPI_DEB_EXACT}")
# libpmapi0's version-node libraries let the tools load PCP's compiled
# agents (pminfo -K add,...,pmda_xfs.so,...).
set(CPACK_DEBIAN_TOOLS_PACKAGE_RECOMMENDS "libpmapi0 ${PMAPI_DEB_EXACT}")
set(CPACK_DEBIAN_TOOLS_DESCRIPTION
    "Performance Co-Pilot tools pminfo, pmdumplog, pmval and pmstore
${CPACK_PACKAGE_DESCRIPTION}
The tools are installed in /usr/lib/pmapi/bin, beside PCP's own in
/usr/bin: put that directory first in PATH to use them under PCP's
names (man then finds their pages too).")

set(CPACK_DEBIAN_DROPIN_PACKAGE_NAME pmapi-dropin)
set(CPACK_DEBIAN_DROPIN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_DROPIN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_DROPIN_PACKAGE_DEPENDS "libpmapi-common ${PMAPI_DEB_EXACT}")
set(CPACK_DEBIAN_DROPIN_DESCRIPTION
    "Performance Co-Pilot's programs over libpmapi (libpcp.so.3 drop-in)
${CPACK_PACKAGE_DESCRIPTION}
This package holds libpmapi built as libpcp.so.3, with the names and
symbol versions of PCP 6.0.3's library, in a directory of its own that is
never on the library path, and pmapi-run, which runs one of PCP's
programs (pmrep, the pcp commands, pmprobe, pcp-atop...) over it.")

# Each package's copyright and changelog, in usr/share/doc/PACKAGE. They are
# installed only when a component is asked for by name (as CPack does), not
# by a plain `cmake --install`.
string(TIMESTAMP PMAPI_CHANGELOG_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
configure_file(${CMAKE_CURRENT_LIST_DIR}/deb/changelog.in ${PROJECT_BINARY_DIR}/packaging/changelog @ONLY)
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/packaging/changelog.gz
                   COMMAND sh -c "gzip -9nc \"$0\" > \"$1\"" ${PROJECT_BINARY_DIR}/packaging/changelog
                           ${PROJECT_BINARY_DIR}/packaging/changelog.gz
                   DEPENDS ${PROJECT_BINARY_DIR}/packaging/changelog VERBATIM)
add_custom_target(pmapi_deb_changelog ALL DEPENDS ${PROJECT_BINARY_DIR}/packaging/changelog.gz)
foreach(component common runtime development tools dropin)
  string(TOUPPER ${component} upper)
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/deb/copyright ${PROJECT_BINARY_DIR}/packaging/changelog.gz
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${CPACK_DEBIAN_${upper}_PACKAGE_NAME}
          COMPONENT ${component} EXCLUDE_FROM_ALL)
endforeach()

include(CPack)
