// pmns_cpp.h: PCP's pmcpp preprocessing of an ASCII PMNS file, in process.
//
// pmLoadASCIINameSpace pipes the file through pmcpp(1). This reproduces the
// subset pmcpp supports and its exact output: C comments are blanked,
// #define/#undef/#ifdef/#ifndef/#else/#endif act as pmcpp acts (one level,
// no nesting), #include "file" and <file> nest up to four deep, words equal
// to a macro name are replaced, and "# LINE \"FILE\"" markers tell the
// parser where each line came from. #shell is refused: the library never
// runs commands.
//
// Example:
//   pmapi::internal::CppOutput out = pmapi::internal::RunPmcpp("root", {"/var/lib/pcp/pmns"});
//   if (!out.error.empty()) { /* out.text holds the lines made before it */ }
#ifndef PMAPI_PMNS_CPP_H_
#define PMAPI_PMNS_CPP_H_

#include <string>
#include <vector>

namespace pmapi::internal {

struct CppOutput {
  std::string text;   // what pmcpp writes on its standard output
  std::string error;  // what it writes on stderr when it fails, else ""
};

// Returns the preprocessed text of the file `path` (opened as given) and,
// if preprocessing failed, pmcpp's diagnostic. Include files are looked up
// as named, then in the directory of `path`, then in `include_dirs`.
CppOutput RunPmcpp(const std::string& path, const std::vector<std::string>& include_dirs);

}  // namespace pmapi::internal

#endif  // PMAPI_PMNS_CPP_H_
