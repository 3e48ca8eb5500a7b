/*
 * version_nodes.c: the whole source of the two libraries that define PCP's
 * symbol version nodes and nothing else (dropin/CMakeLists.txt).
 *
 * An agent built by PCP names libpcp_pmda.so.3 and libpcp.so.3, and the
 * dynamic linker accepts it only where objects of those names define the
 * version nodes it was linked against (PCP_PMDA_3.0 ..., PCP_3.0 ...).
 * These objects define them, with no code and no data: every name the
 * agent calls binds to the one copy of the library the process already
 * has (the tool itself, libpmapi.so, or the drop-in libpcp.so.3).
 */
typedef int pmapi_version_nodes_only;
