// this_object.h: where the library itself is: the shared object that
// holds it (libpmapi.so, the drop-in libpcp.so.3) or, when a program links
// it statically, the program. Installed files the library needs (its
// default agent configuration, the version-node libraries) are found from
// there, so a moved installation keeps working.
#ifndef PMAPI_CORE_THIS_OBJECT_H_
#define PMAPI_CORE_THIS_OBJECT_H_

#include <string>

namespace pmapi {

// The canonical path of the object holding the library, or "" if the
// loader cannot say.
std::string ThisObjectPath();

// The directory of ThisObjectPath(), or "".
std::string ThisObjectDirectory();

// The canonical form of `path` if it names a regular file, else "".
std::string RealFile(const std::string& path);

}  // namespace pmapi

#endif  // PMAPI_CORE_THIS_OBJECT_H_
