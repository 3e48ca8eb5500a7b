// c_pmda_help.cc: help text by handle for C agents (pmdaOpenHelp,
// pmdaGetHelp, pmdaGetInDomHelp, pmdaCloseHelp). The files are in the
// source form newhelp(1) reads; see pmda_help.h.
#include <memory>
#include <mutex>
#include <vector>

#include "c_pmda_internal.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

std::mutex help_mu;

std::vector<std::unique_ptr<HelpFile>>& HelpTable() {
  static auto* table = new std::vector<std::unique_ptr<HelpFile>>;
  return *table;
}

const HelpFile* FindHelp(int handle) {
  auto& table = HelpTable();
  if (handle < 0 || static_cast<size_t>(handle) >= table.size()) return nullptr;
  return table[static_cast<size_t>(handle)].get();
}

char* Pick(const HelpEntry* e, int type) {
  if (e == nullptr) return nullptr;
  // an entry with no text gives "", as PCP's index points at an empty string
  const std::string& text = (type & PM_TEXT_ONELINE) ? e->oneline : e->text;
  return const_cast<char*>(text.c_str());
}

}  // namespace

int OpenCHelp(const std::string& path, int domain, const HelpFile::NameResolver& resolve,
              std::vector<std::string>* diagnostics) {
  HelpFile::NameResolver by_name = resolve;
  if (!by_name) by_name = [](std::string_view) -> absl::StatusOr<PmID> { return PcpError(kErrName); };
  // newhelp's pair first, as PCP reads it; this library's agents may give
  // the source text instead, an agent built by PCP may not
  absl::StatusOr<HelpFile> help = HelpFile::LoadNewhelp(path);
  const CPmdaLoadContext* load = CurrentCPmdaLoadContext();
  if (!help.ok() && !(load != nullptr && load->newhelp_only)) {
    absl::StatusOr<HelpFile> source = HelpFile::Load(path, domain, by_name, diagnostics);
    if (source.ok()) help = std::move(source);
  }
  if (!help.ok()) return PcpCode(help.status());
  std::lock_guard<std::mutex> lock(help_mu);
  auto& table = HelpTable();
  for (size_t i = 0; i < table.size(); ++i) {
    if (table[i] == nullptr) {
      table[i] = std::make_unique<HelpFile>(*std::move(help));
      return static_cast<int>(i);
    }
  }
  table.push_back(std::make_unique<HelpFile>(*std::move(help)));
  return static_cast<int>(table.size() - 1);
}

}  // namespace pmapi

extern "C" {

// Names in the file are resolved against the agent being loaded when
// called from an init function; otherwise only numeric identifiers count.
int pmdaOpenHelp(const char* fname) {
  if (fname == nullptr) return -EINVAL;
  const pmapi::CPmdaLoadContext* load = pmapi::CurrentCPmdaLoadContext();
  return pmapi::OpenCHelp(fname, load ? load->domain : 0, load ? load->resolve : nullptr,
                          load ? load->diagnostics : nullptr);
}

void pmdaCloseHelp(int handle) {
  std::lock_guard<std::mutex> lock(pmapi::help_mu);
  auto& table = pmapi::HelpTable();
  if (handle >= 0 && static_cast<size_t>(handle) < table.size()) table[static_cast<size_t>(handle)].reset();
}

char* pmdaGetHelp(int handle, pmID pmid, int type) {
  std::lock_guard<std::mutex> lock(pmapi::help_mu);
  const pmapi::HelpFile* h = pmapi::FindHelp(handle);
  return h ? pmapi::Pick(h->ForPmID(pmapi::PmID{pmid}), type) : nullptr;
}

char* pmdaGetInDomHelp(int handle, pmInDom indom, int type) {
  std::lock_guard<std::mutex> lock(pmapi::help_mu);
  const pmapi::HelpFile* h = pmapi::FindHelp(handle);
  return h ? pmapi::Pick(h->ForInDom(pmapi::InDom{indom}), type) : nullptr;
}

}  // extern "C"
