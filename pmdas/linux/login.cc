// kernel.all.nusers, nroots and nsessions of the Linux agent: the login
// records of utmp(5), read as records of the file rather than through
// getutent(3), whose one open file per process would be shared by every
// context and thread.
#include <utmp.h>

#include <cstring>
#include <string>

#include "pmapi/errors.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi::linux_agent {

void RefreshLogin(LinuxState& st) {
  // below LINUX_STATSPATH for tests (PCP's agent reads the system's file
  // there too)
  std::optional<std::string> data = ls::ReadProcFile(st.root, _PATH_UTMP);
  st.login = {};
  if (!data) return;
  struct utmp ut;
  for (size_t at = 0; at + sizeof ut <= data->size(); at += sizeof ut) {
    std::memcpy(&ut, data->data() + at, sizeof ut);
    if (ut.ut_type == USER_PROCESS) {
      if (ut.ut_user[0] == '\0') continue;  // not counted as a session either, as PCP has it
      if (std::strncmp(ut.ut_user, "root", sizeof ut.ut_user) == 0) ++st.login.nroots;
      ++st.login.nusers;
    }
    ++st.login.nsessions;
  }
}

int FetchLogin(const LinuxState& st, const MetricRow& r, AtomValue* atom) {
  switch (r.item) {
    case 0: atom->ul = st.login.nusers; return 1;
    case 1: atom->ul = st.login.nroots; return 1;
    case 2: atom->ul = st.login.nsessions; return 1;
  }
  return kErrPmid;
}

}  // namespace pmapi::linux_agent
