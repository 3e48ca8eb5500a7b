// mem.buddyinfo.* of the Linux agent, from /proc/buddyinfo: one instance
// per zone, page order and node ("Normal::order3::node0"), free blocks of
// that order (pages) and the memory they hold (total, kilobytes). Read as
// PCP's agent reads the file: the number of orders comes from the first
// line the agent ever reads, instances are numbered in order of discovery
// and kept, and a line's node name is its text before the comma with "N"
// made "n" and the first blank taken out ("Node 0" is "node0").
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "pmapi/errors.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi::linux_agent {
namespace {

// The words of `text` between runs of blanks (not tabs), leading blanks
// skipped; a newline is part of the last word, and counts as a word of its
// own after a trailing blank.
std::vector<std::string_view> BlankWords(std::string_view text) {
  std::vector<std::string_view> out;
  size_t at = text.find_first_not_of(' ');
  if (at == std::string_view::npos) return {std::string_view()};
  while (true) {
    const size_t end = text.find(' ', at);
    out.push_back(text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
    if (end == std::string_view::npos) break;
    at = text.find_first_not_of(' ', end);
    if (at == std::string_view::npos) {
      out.push_back(std::string_view());  // blanks to the end: an empty last word
      break;
    }
  }
  return out;
}

// "Node 0" -> "node0": every N made n, the first blank taken out, and the
// text then one shorter than before (so a name without a blank loses its
// last character, as in PCP's agent).
std::string NodeName(std::string_view before_comma) {
  std::string tmp(before_comma);
  for (char& c : tmp) {
    if (c == 'N') c = 'n';
  }
  std::string out = tmp;
  if (const size_t blank = tmp.find(' '); blank != std::string::npos) out.erase(blank, 1);
  out.resize(tmp.empty() ? 0 : std::min(out.size(), tmp.size() - 1));
  return out;
}

}  // namespace

void RefreshBuddyinfo(LinuxState& st, Pmda& pmda) {
  std::optional<std::string> text = ls::ReadProcFile(st.root, "/proc/buddyinfo");
  if (st.buddy_orders < -1) {
    // the first read fixes the number of orders: the first line's words less five
    st.buddy_orders = -1;
    if (!text || text->empty()) return;
    const std::string_view first = ls::FgetsLines(*text, 2048).front();
    st.buddy_orders = static_cast<int>(BlankWords(first).size()) - 5;
  }
  if (!text || st.buddy_orders < 0) return;
  const size_t orders = static_cast<size_t>(st.buddy_orders);
  for (std::string_view line : ls::FgetsLines(*text, 2048)) {
    const size_t comma = line.find(',');
    const size_t name_end = comma == std::string_view::npos ? line.size() : comma;
    const std::string node = NodeName(line.substr(0, name_end));
    const std::vector<std::string_view> words = BlankWords(line.substr(std::min(line.size(), name_end + 6)));
    const std::string zone(words[0]);
    size_t first = 0;
    while (first < st.buddys.size() && !(st.buddys[first].node == node && st.buddys[first].zone == zone)) first += orders;
    if (first >= st.buddys.size()) {
      first = st.buddys.size();
      for (size_t j = 0; j < orders; ++j) {
        st.buddys.push_back(Buddy{node, zone, static_cast<unsigned>(j), 0, absl::StrCat(zone, "::order", j, "::", node)});
      }
    }
    for (size_t j = 0; j < orders; ++j) {
      const std::string word = j + 1 < words.size() ? std::string(words[j + 1]) : "";
      st.buddys[first + j].value = std::strtoul(word.c_str(), nullptr, 10);
    }
  }
  if (PmdaIndom* indom = pmda.FindIndom(MakeInDom(pmda.domain(), kBuddyIndom))) {
    indom->set.clear();
    for (size_t i = 0; i < st.buddys.size(); ++i) indom->set.push_back({static_cast<Inst>(i), st.buddys[i].name});
  }
}

int FetchBuddyinfo(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom) {
  const uint32_t i = static_cast<uint32_t>(ToPcp(inst));
  if (i >= st.buddys.size()) return kErrInst;
  const Buddy& b = st.buddys[i];
  if (r.item == 0) return (atom->ull = b.value, 1);
  if (r.item != 1) return kErrPmid;
  const unsigned shift = st.PageShift();
  // a made-up file may give orders past 63: their blocks shift out to 0
  const auto shl = [](uint64_t v, unsigned n) { return n >= 64 ? uint64_t{0} : v << n; };
  atom->ull = shl(shl(b.value, b.order), shift) >> 10;
  return 1;
}

}  // namespace pmapi::linux_agent
