#include "pmda_help.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "pmapi/errors.h"
#include "read_file.h"

namespace pmapi {
namespace {

// Returns true for a symbolic domain name: capitals, digits and '_',
// starting with a capital.
bool IsSymbolicDomain(std::string_view s) {
  if (s.empty() || !absl::ascii_isupper(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!absl::ascii_isupper(static_cast<unsigned char>(c)) &&
        !absl::ascii_isdigit(static_cast<unsigned char>(c)) && c != '_')
      return false;
  }
  return true;
}

// Returns the domain a D component stands for, or -1.
int DomainOf(std::string_view s, int own_domain) {
  if (IsSymbolicDomain(s)) return own_domain;
  unsigned v = 0;
  if (!absl::SimpleAtoi(absl::string_view(s.data(), s.size()), &v) || v > 511) return -1;
  return static_cast<int>(v);
}

bool ParseNumber(absl::string_view s, unsigned limit, unsigned* out) {
  return absl::SimpleAtoi(s, out) && *out <= limit;
}

// A help entry's subject: an instance domain or a metric.
struct Ident {
  bool is_indom = false;
  InDom indom{};
  PmID pmid{};
};

// Resolves IDENT to a PMID or an indom. Returns false if it names neither.
bool ResolveIdent(std::string_view ident, int domain, const HelpFile::NameResolver& resolve,
                  Ident* out) {
  std::vector<absl::string_view> parts =
      absl::StrSplit(absl::string_view(ident.data(), ident.size()), '.');
  const int d = DomainOf(std::string_view(parts[0].data(), parts[0].size()), domain);
  unsigned a = 0, b = 0;
  if (d >= 0 && parts.size() == 2 && ParseNumber(parts[1], 0x3fffff, &a)) {
    *out = Ident{true, MakeInDom(d, a), {}};
    return true;
  }
  if (d >= 0 && parts.size() == 3 && ParseNumber(parts[1], 0xfff, &a) &&
      ParseNumber(parts[2], 0x3ff, &b)) {
    *out = Ident{false, {}, MakePmID(d, a, b)};
    return true;
  }
  if (!resolve) return false;
  absl::StatusOr<PmID> id = resolve(ident);
  if (!id.ok()) return false;
  *out = Ident{false, {}, *id};
  return true;
}

// Drops blank lines at both ends of a help body.
std::string TrimBody(const std::vector<std::string>& lines) {
  size_t first = 0, last = lines.size();
  while (first < last && absl::StripAsciiWhitespace(lines[first]).empty()) ++first;
  while (last > first && absl::StripAsciiWhitespace(lines[last - 1]).empty()) --last;
  std::string out;
  for (size_t i = first; i < last; ++i) {
    absl::StrAppend(&out, lines[i], "\n");
  }
  return out;
}

}  // namespace

absl::StatusOr<HelpFile> HelpFile::Parse(std::string_view source, int domain,
                                         const NameResolver& resolve,
                                         std::vector<std::string>* warnings) {
  HelpFile help;
  HelpEntry* current = nullptr;
  std::vector<std::string> body;
  auto finish = [&]() {
    if (current) current->text = TrimBody(body);
    body.clear();
  };
  int lineno = 0;
  bool skipping = false;
  for (absl::string_view line : absl::StrSplit(absl::string_view(source.data(), source.size()), '\n')) {
    ++lineno;
    if (!line.empty() && line[0] == '#') continue;
    if (!line.empty() && line[0] == '@') {
      finish();
      absl::string_view rest = absl::StripLeadingAsciiWhitespace(line.substr(1));
      size_t space = rest.find_first_of(" \t");
      absl::string_view ident = rest.substr(0, space);
      absl::string_view oneline =
          space == absl::string_view::npos ? absl::string_view() : rest.substr(space);
      Ident id;
      if (ident.empty() || !ResolveIdent(std::string_view(ident.data(), ident.size()), domain,
                                         resolve, &id)) {
        if (warnings) warnings->push_back(absl::StrCat("help line ", lineno, ": unknown \"", ident, "\""));
        current = nullptr;
        skipping = true;
        continue;
      }
      skipping = false;
      current = id.is_indom ? &help.indoms_[id.indom] : &help.pmids_[id.pmid];
      // newhelp keeps what follows the leading blanks, trailing ones too
      current->oneline = std::string(absl::StripLeadingAsciiWhitespace(oneline));
      continue;
    }
    if (current) {
      body.emplace_back(line);
    } else if (!skipping && !absl::StripAsciiWhitespace(line).empty()) {
      return PcpError(kErrGeneric, absl::StrCat("help line ", lineno, ": text before the first @ entry"));
    }
  }
  finish();
  return help;
}

absl::StatusOr<HelpFile> HelpFile::Load(const std::string& path, int domain,
                                        const NameResolver& resolve,
                                        std::vector<std::string>* warnings) {
  absl::StatusOr<std::string> text = ReadWholeFile(path);
  if (!text.ok()) return text.status();
  return Parse(*text, domain, resolve, warnings);
}

namespace {

constexpr uint32_t kNewhelpMagic = 0x50635068;
constexpr uint32_t kNewhelpVersion = 0x31320000;  // "12" in the high half
constexpr uint32_t kNewhelpInDomBit = 1u << 31;
constexpr size_t kNewhelpRecord = 12;

uint32_t Word(std::string_view bytes, size_t at) {
  uint32_t w;
  std::memcpy(&w, bytes.data() + at, sizeof w);
  return w;
}

// The NUL-terminated string at `off` in `pag`; empty when outside it.
std::string TextAt(std::string_view pag, uint32_t off) {
  if (off >= pag.size()) return "";
  std::string_view rest = pag.substr(off);
  return std::string(rest.substr(0, rest.find('\0')));
}

}  // namespace

absl::StatusOr<HelpFile> HelpFile::ParseNewhelp(std::string_view dir, std::string_view pag) {
  if (dir.size() < kNewhelpRecord || Word(dir, 0) != kNewhelpMagic ||
      (Word(dir, 4) & 0xffff0000u) != kNewhelpVersion)
    return PcpError(-EINVAL);
  const uint64_t count = Word(dir, 8);
  if ((count + 1) * kNewhelpRecord > dir.size()) return PcpError(-EINVAL);
  HelpFile help;
  for (uint64_t i = 1; i <= count; ++i) {
    const size_t at = static_cast<size_t>(i * kNewhelpRecord);
    const uint32_t key = Word(dir, at);
    HelpEntry e{TextAt(pag, Word(dir, at + 4)), TextAt(pag, Word(dir, at + 8))};
    if (key & kNewhelpInDomBit) {
      help.indoms_[InDom{key & ~kNewhelpInDomBit}] = std::move(e);
    } else {
      help.pmids_.emplace(PmID{key}, std::move(e));
    }
  }
  return help;
}

absl::StatusOr<HelpFile> HelpFile::LoadNewhelp(const std::string& path) {
  absl::StatusOr<std::string> dir = ReadWholeFile(path + ".dir");
  if (!dir.ok()) return dir.status();
  absl::StatusOr<std::string> pag = ReadWholeFile(path + ".pag");
  if (!pag.ok()) return pag.status();
  return ParseNewhelp(*dir, *pag);
}

const HelpEntry* HelpFile::ForPmID(PmID id) const {
  auto it = pmids_.find(id);
  return it == pmids_.end() ? nullptr : &it->second;
}

const HelpEntry* HelpFile::ForInDom(InDom indom) const {
  auto it = indoms_.find(indom);
  return it == indoms_.end() ? nullptr : &it->second;
}

std::string ExpandEnvironment(std::string_view text) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] != '$' || i + 1 >= text.size()) {
      out += text[i++];
      continue;
    }
    size_t start = i + 1, end;
    bool braced = text[start] == '{';
    if (braced) {
      end = text.find('}', start);
      if (end == std::string_view::npos) {
        out.append(text.substr(i));
        break;
      }
    } else {
      end = start;
      while (end < text.size() && (absl::ascii_isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
      if (end == start) {
        out += text[i++];
        continue;
      }
    }
    std::string var(text.substr(braced ? start + 1 : start, end - (braced ? start + 1 : start)));
    if (const char* v = std::getenv(var.c_str())) out += v;
    i = braced ? end + 1 : end;
  }
  return out;
}

}  // namespace pmapi
