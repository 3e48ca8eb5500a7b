// registry.h: the process's global derived metrics (pmRegisterDerived,
// pmLoadDerivedConfig and the default configuration), and the diagnostic
// text pmDerivedErrStr reports.
#ifndef PMAPI_DERIVE_REGISTRY_H_
#define PMAPI_DERIVE_REGISTRY_H_

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "expr.h"
#include "pmapi/types.h"

namespace pmapi::derive {

struct GlobalMetric {
  std::string name;
  PmID pmid = kPmIDNull;
  bool anon = false;
  std::shared_ptr<const Node> expr;
  std::optional<std::string> oneline;
  std::optional<std::string> help;
};

// The flag bit PCP sets in per-context derived metrics' PMIDs.
inline constexpr uint32_t kPmidFlagBit = 0x80000000u;
constexpr PmID WithPmidFlag(PmID id) { return PmID{ToPcp(id) | kPmidFlagBit}; }

// True for a derived metric's PMID (domain 511, item not 0, cluster below
// 2048), as PCP's IS_DERIVED.
bool IsDerivedPmid(PmID id);

// The thread's last diagnostic (pmDerivedErrStr); nullopt when none.
const std::optional<std::string>& LastError();
void SetLastError(std::optional<std::string> why);

class Registry {
 public:
  static Registry& Get();

  // Registers a global metric (pmRegisterDerived). Returns nullopt, or the
  // offset in `expr` PCP's error points at (0 for errors that are not
  // about the text) with LastError() set.
  std::optional<int> Register(std::string_view name, std::string_view expr);
  // pmLoadDerivedConfig: files and directories separated by ':'. Returns
  // the number of metrics registered or a negative PCP error code.
  int LoadConfig(std::string_view path);
  // Loads the anonymous event metrics and the default configuration once.
  void Init();

  // The metrics registered so far from index `from` on.
  std::vector<GlobalMetric> From(size_t from);
  size_t size();
  int limit();
  void set_limit(int limit);
  // Help text of a global metric (PM_ERR_PMID if none has `pmid`).
  int Text(PmID pmid, int kind, std::string* out);

 private:
  std::optional<int> RegisterLocked(std::string_view name, std::string_view expr, bool anon);
  void RegisterAnon(const char* name, const char* oneline, const char* help);
  int LoadPathLocked(std::string_view path, bool recover);
  int LoadComponentLocked(const std::string& path, bool recover);
  int LoadFileLocked(const std::string& path);
  void InitLocked();
  friend class ConfigReader;

  std::mutex mu_;
  bool initialised_ = false;
  int limit_ = -1;
  int nanon_ = 0;
  PmID last_pmid_ = kPmIDNull;
  std::vector<GlobalMetric> metrics_;
};

// The default configuration PCP loads when PCP_DERIVED_CONFIG is unset:
// $PCP_VAR_DIR/config/derived if it exists (PCP_VAR_DIR from the
// environment, else $PCP_CONF or /etc/pcp.conf).
std::optional<std::string> DefaultConfigPath();

}  // namespace pmapi::derive

#endif  // PMAPI_DERIVE_REGISTRY_H_
