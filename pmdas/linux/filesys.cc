// The filesys.* and hinv.nfilesys metrics of the Linux agent: block
// device file systems from /proc/mounts, sizes from statfs(2).
#include <sys/statvfs.h>

#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "pmapi/errors.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi::linux_agent {
namespace {

// /proc/mounts escapes blanks in paths as octal (\040).
std::string Unescape(absl::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() + 0 && s[i + 1] >= '0' && s[i + 1] <= '3') {
      out += static_cast<char>((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

bool ReadOnly(absl::string_view options) {
  for (absl::string_view o : absl::StrSplit(options, ',')) {
    if (o == "ro") return true;
  }
  return false;
}

}  // namespace

void RefreshFilesys(LinuxState& st, Pmda& pmda) {
  st.filesys.clear();
  std::set<std::string> seen;
  for (absl::string_view line : absl::StrSplit(ReadText(st, "/proc/mounts"), '\n', absl::SkipEmpty())) {
    std::vector<absl::string_view> f = absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (f.size() < 4 || !absl::StartsWith(f[0], "/")) continue;
    Filesys fs;
    fs.device = Unescape(f[0]);
    fs.dir = Unescape(f[1]);
    if (!seen.insert(fs.device).second) continue;
    struct statvfs vfs {};
    if (statvfs((st.root + fs.dir).c_str(), &vfs) != 0) continue;
    fs.blocks = vfs.f_blocks;
    fs.bfree = vfs.f_bfree;
    fs.bavail = vfs.f_bavail;
    fs.files = vfs.f_files;
    fs.ffree = vfs.f_ffree;
    fs.bsize = vfs.f_bsize;
    fs.readonly = ReadOnly(f[3]);
    fs.inst = st.fs_ids.For(fs.device);
    st.filesys.push_back(std::move(fs));
  }
  std::vector<PmdaInstid> set;
  for (const Filesys& fs : st.filesys) set.push_back({fs.inst, fs.device});
  SetInstances(pmda, kFilesysIndom, std::move(set));
}

int FetchFilesys(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom) {
  if (r.item == 0) return (atom->ul = static_cast<uint32_t>(st.filesys.size()), 1);
  const Filesys* fs = ByInst(st.filesys, inst);
  if (fs == nullptr) return kErrInst;
  const uint64_t used = fs->blocks - fs->bfree;  // blocks
  auto kb = [fs](uint64_t blocks) { return blocks * fs->bsize / 1024; };
  switch (r.item) {
    case 1: atom->ull = kb(fs->blocks); return 1;
    case 2: atom->ull = kb(used); return 1;
    case 3: atom->ull = kb(fs->bfree); return 1;
    case 4: atom->ul = static_cast<uint32_t>(fs->files); return 1;
    case 5: atom->ul = static_cast<uint32_t>(fs->files - fs->ffree); return 1;
    case 6: atom->ul = static_cast<uint32_t>(fs->ffree); return 1;
    case 7: atom->bytes = fs->dir; return 1;
    case 8: {  // percentage full, of the space ordinary users may have
      const double avail = static_cast<double>(used + fs->bavail);
      atom->d = avail > 0 ? static_cast<double>(used) * 100.0 / avail : 0.0;
      return 1;
    }
    case 9: atom->ul = static_cast<uint32_t>(fs->bsize); return 1;
    case 10: atom->ull = kb(fs->bavail); return 1;
    case 11: atom->ul = fs->readonly; return 1;
  }
  return kErrPmid;
}

}  // namespace pmapi::linux_agent
