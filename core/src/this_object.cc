// this_object.cc: see this_object.h.
#include "this_object.h"

#include <dlfcn.h>
#include <link.h>
#include <sys/stat.h>

#include <climits>
#include <cstdlib>

namespace pmapi {

std::string RealFile(const std::string& path) {
  char real[PATH_MAX];
  struct stat st;
  if (realpath(path.c_str(), real) == nullptr || stat(real, &st) != 0 || !S_ISREG(st.st_mode)) return "";
  return real;
}

// The loader names a shared object by the path it opened; for the program
// itself it may give only argv[0] (a wrapper's exec -a, a link elsewhere),
// so a name that is not absolute is taken from the kernel's link.
std::string ThisObjectPath() {
  Dl_info info;
  struct link_map* map = nullptr;
  if (dladdr1(reinterpret_cast<void*>(&ThisObjectPath), &info, reinterpret_cast<void**>(&map),
              RTLD_DL_LINKMAP) == 0) {
    return "";
  }
  const bool shared = map != nullptr && map->l_name != nullptr && map->l_name[0] != '\0';
  const bool absolute = shared && info.dli_fname != nullptr && info.dli_fname[0] == '/';
  return RealFile(absolute ? info.dli_fname : "/proc/self/exe");
}

std::string ThisObjectDirectory() {
  const std::string path = ThisObjectPath();
  return path.substr(0, path.rfind('/') == std::string::npos ? 0 : path.rfind('/'));
}

}  // namespace pmapi
