// pmda_help.h: an agent's help text, read from the source form PCP's
// newhelp(1) takes.
//
// The file holds entries; each starts with a line "@ IDENT one-line text"
// and the lines after it, up to the next "@" line, are the full text.
// IDENT is a metric name, a PMID written D.C.I, or an instance domain
// written D.S, where D is a number or a symbolic domain name (all capitals,
// e.g. SIMPLE) that stands for the agent's own domain. Lines starting with
// '#' are comments.
//
// Example:
//   std::vector<std::string> warnings;
//   absl::StatusOr<pmapi::HelpFile> h = pmapi::HelpFile::Parse(
//       "@ TEST.0 colours\nThree colours.\n@ test.long.one the number 1\n", 250,
//       resolve, &warnings);
//   h->ForInDom(pmapi::MakeInDom(250, 0))->oneline;   // "colours"
#ifndef PMAPI_SRC_PMDA_HELP_H_
#define PMAPI_SRC_PMDA_HELP_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "pmapi/types.h"

namespace pmapi {

struct HelpEntry {
  std::string oneline;
  std::string text;
};

class HelpFile {
 public:
  using NameResolver = std::function<absl::StatusOr<PmID>(std::string_view)>;

  // Parses help source for an agent of `domain`. Entries whose IDENT cannot
  // be resolved are skipped with a message in *warnings. Returns
  // PM_ERR_GENERIC when text appears before the first entry.
  static absl::StatusOr<HelpFile> Parse(std::string_view source, int domain,
                                        const NameResolver& resolve,
                                        std::vector<std::string>* warnings);
  // Reads and parses a file; a missing file is -errno.
  static absl::StatusOr<HelpFile> Load(const std::string& path, int domain,
                                       const NameResolver& resolve,
                                       std::vector<std::string>* warnings);

  // Decodes the pair newhelp writes (PCP's binary form): `dir`, an index
  // of 12-byte native-order records whose first is a header (magic
  // 0x50635068, version "12", entry count), each after it a metric's
  // PMID (an instance domain's with the top bit set) and the offsets of
  // its one-line and full text in `pag`, NUL-terminated strings. A metric
  // listed twice keeps its first entry, an instance domain its last, as
  // PCP's lookups find them. A bad header or an index past the end is
  // -EINVAL; an offset outside `pag` leaves that text empty.
  static absl::StatusOr<HelpFile> ParseNewhelp(std::string_view dir, std::string_view pag);
  // Reads PATH.dir and PATH.pag; a missing file is -errno.
  static absl::StatusOr<HelpFile> LoadNewhelp(const std::string& path);

  // Returns the entry of a metric or instance domain, or null.
  const HelpEntry* ForPmID(PmID id) const;
  const HelpEntry* ForInDom(InDom indom) const;
  size_t size() const { return pmids_.size() + indoms_.size(); }

 private:
  absl::flat_hash_map<PmID, HelpEntry> pmids_;
  absl::flat_hash_map<InDom, HelpEntry> indoms_;
};

// Returns `text` with "$NAME" and "${NAME}" replaced by the environment's
// values (unset names become empty).
std::string ExpandEnvironment(std::string_view text);

}  // namespace pmapi

#endif  // PMAPI_SRC_PMDA_HELP_H_
