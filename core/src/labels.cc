#include "pmapi/labels.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <utility>

#include "pmapi/errors.h"

namespace pmapi {
namespace {

// A tiny scanner over one JSON text: enough to split an object into its
// top-level names and compact value texts.
class JsonScanner {
 public:
  explicit JsonScanner(std::string_view text) : text_(text) {}

  bool AtEnd() {
    SkipSpace();
    return pos_ >= text_.size();
  }
  bool Consume(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool Peek(char c) {
    SkipSpace();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  // Reads a string token including its quotes, into `out` verbatim.
  bool String(std::string* out) {
    SkipSpace();
    if (pos_ >= text_.size() || text_[pos_] != '"') return false;
    size_t start = pos_++;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      if (text_[pos_] == '\\') ++pos_;
      ++pos_;
    }
    if (pos_ >= text_.size()) return false;
    ++pos_;
    out->append(text_.substr(start, pos_ - start));
    return true;
  }
  // Reads any value, appending its compact form (whitespace outside
  // strings removed) to `out`.
  bool Value(std::string* out, int depth = 0) {
    if (depth > 64) return false;
    SkipSpace();
    if (pos_ >= text_.size()) return false;
    char c = text_[pos_];
    if (c == '"') return String(out);
    if (c == '{') return Container(out, '{', '}', depth, true);
    if (c == '[') return Container(out, '[', ']', depth, false);
    return Scalar(out);
  }

 private:
  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool Scalar(std::string* out) {
    size_t start = pos_;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '+' && c != '.') break;
      ++pos_;
    }
    if (pos_ == start) return false;
    std::string_view tok = text_.substr(start, pos_ - start);
    bool number = std::isdigit(static_cast<unsigned char>(tok[0])) || tok[0] == '-';
    if (!number && tok != "true" && tok != "false" && tok != "null") return false;
    out->append(tok);
    return true;
  }
  bool Container(std::string* out, char open, char close, int depth, bool object) {
    ++pos_;
    out->push_back(open);
    if (Consume(close)) {
      out->push_back(close);
      return true;
    }
    while (true) {
      if (object) {
        if (!String(out) || !Consume(':')) return false;
        out->push_back(':');
      }
      if (!Value(out, depth + 1)) return false;
      if (Consume(close)) break;
      if (!Consume(',')) return false;
      out->push_back(',');
    }
    out->push_back(close);
    return true;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

// PM_LABEL_COMPOUND, the flag under which names may hold dots.
constexpr int kCompoundFlag = 1 << 6;

// A label name: a letter, then letters, digits and '_'; with `dotted`
// (text PCP parses as already-merged compound labels) '.' too.
bool IsLabelName(std::string_view quoted, bool dotted) {
  if (quoted.size() < 3) return false;
  std::string_view name = quoted.substr(1, quoted.size() - 2);
  if (!std::isalpha(static_cast<unsigned char>(name[0]))) return false;
  return std::all_of(name.begin(), name.end(), [dotted](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (dotted && c == '.');
  });
}

// Builds the indexed set from (quoted name, compact value) pairs sorted by
// name.
LabelSet BuildSet(const std::map<std::string, std::string>& pairs, int flags) {
  LabelSet set;
  set.json = "{";
  for (const auto& [name, value] : pairs) {
    if (set.json.size() > 1) set.json += ',';
    LabelEntry l;
    l.name = static_cast<uint16_t>(set.json.size() + 1);
    l.namelen = static_cast<uint8_t>(name.size() - 2);
    set.json += name;
    set.json += ':';
    l.value = static_cast<uint16_t>(set.json.size());
    l.valuelen = static_cast<uint16_t>(value.size());
    l.flags = static_cast<uint8_t>(flags);
    set.json += value;
    set.labels.push_back(l);
  }
  set.json += '}';
  return set;
}

}  // namespace

absl::StatusOr<LabelSet> ParseLabelSet(std::string_view json, int flags) {
  JsonScanner scan(json);
  std::map<std::string, std::string> pairs;
  if (!scan.Consume('{')) return PcpError(kErrGeneric);
  if (!scan.Consume('}')) {
    while (true) {
      std::string name, value;
      if (!scan.String(&name) || !IsLabelName(name, (flags & kCompoundFlag) != 0) || !scan.Consume(':') ||
          !scan.Value(&value)) {
        return PcpError(kErrGeneric);
      }
      if (!pairs.emplace(std::move(name), std::move(value)).second) return PcpError(kErrGeneric);
      if (scan.Consume('}')) break;
      if (!scan.Consume(',')) return PcpError(kErrGeneric);
    }
  }
  if (!scan.AtEnd()) return PcpError(kErrGeneric);
  LabelSet set = BuildSet(pairs, flags);
  if (set.json.size() > 0xffff) return PcpError(kErrToobig);
  return set;
}

std::string MergeLabelSets(const std::vector<const LabelSet*>& sets) {
  std::map<std::string, std::string> pairs;
  for (const LabelSet* set : sets) {
    if (set == nullptr) continue;
    for (const LabelEntry& l : set->labels) {
      std::string name = "\"" + std::string(LabelName(*set, l)) + "\"";
      pairs[name] = std::string(LabelValue(*set, l));
    }
  }
  return BuildSet(pairs, 0).json;
}

std::string_view LabelName(const LabelSet& set, const LabelEntry& l) {
  if (static_cast<size_t>(l.name) + l.namelen > set.json.size()) return {};
  return std::string_view(set.json).substr(l.name, l.namelen);
}

std::string_view LabelValue(const LabelSet& set, const LabelEntry& l) {
  if (static_cast<size_t>(l.value) + l.valuelen > set.json.size()) return {};
  return std::string_view(set.json).substr(l.value, l.valuelen);
}

}  // namespace pmapi
