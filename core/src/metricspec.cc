// Parses PCP metric specifications (pmParseMetricSpec).
//
// The scan follows PCP's order, because the order decides which error a
// malformed specification gets: the source is found first by looking
// backwards from the instance list (or the end) for the last ':' or '/', then
// the metric name is delimited, then the bracketed instance list, then
// trailing bytes are refused, and only then is the list split into names.
#include "pmapi/metricspec.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "pmapi/errors.h"
#include "pointed_error.h"

namespace pmapi {
namespace {


// Returns `text` with every backslash dropped and the byte after it kept
// literally; a backslash that is the last byte stays.
std::string Unescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) ++i;
    out += text[i];
  }
  return out;
}

// One pass over a specification. Positions are byte offsets into `spec_`.
class SpecScanner {
 public:
  explicit SpecScanner(std::string_view spec) : spec_(spec) {}

  // Returns the parsed specification, taking the defaults when it names no
  // source, or PCP's error.
  absl::StatusOr<MetricSpec> Parse(int isarch, std::string_view default_source);

 private:
  // Returns true at the end of the text or at a NUL byte, where PCP's C
  // string would end.
  bool AtEnd(size_t pos) const { return pos >= spec_.size() || spec_[pos] == '\0'; }
  size_t SkipSpace(size_t pos) const {
    while (pos < spec_.size() && absl::ascii_isspace(spec_[pos])) ++pos;
    return pos;
  }
  absl::Status Error(size_t point, std::string_view reason) const;

  // Each step moves pos_ past what it reads and records its span.
  absl::Status ScanSource(MetricSpec& out);
  absl::Status ScanMetric();
  absl::Status ScanInstanceList();
  absl::Status SplitInstances(std::vector<std::string>& names) const;

  std::string_view spec_;
  size_t pos_ = 0;
  size_t metric_begin_ = 0, metric_end_ = 0;
  bool has_list_ = false;
  size_t list_begin_ = 0, list_end_ = 0;  // inside the brackets
};

// Returns PCP's error for failing at byte `point` for `reason`: the text,
// then a line that keeps the text's non-printing bytes (tabs, so the columns
// line up) and blanks the rest up to "^". REQUIRES: point <= spec_.size().
absl::Status SpecScanner::Error(size_t point, std::string_view reason) const {
  return PcpErrorWithMessage(kErrGeneric, PointedErrorText(spec_, point, reason));
}

// Looks backwards from the first '[' (or the end) for the last ':' (a host,
// or "@" for a local context) or '/' (an archive); escapes do not hide them.
// Leaves `out` untouched when there is neither.
absl::Status SpecScanner::ScanSource(MetricSpec& out) {
  size_t limit = pos_;
  while (!AtEnd(limit) && spec_[limit] != '[') ++limit;
  for (size_t mark = limit; mark > pos_; --mark) {
    char c = spec_[mark - 1];
    if (c != ':' && c != '/') continue;
    size_t end = mark - 1;
    while (end > pos_ && absl::ascii_isspace(spec_[end - 1])) --end;
    if (end == pos_) return Error(pos_, c == ':' ? "host name expected" : "archive name expected");
    std::string_view name = spec_.substr(pos_, end - pos_);
    if (c == '/') {
      out.isarch = kSpecArchive;
    } else {
      out.isarch = name == "@" ? kSpecLocal : kSpecHost;
    }
    out.source = Unescape(name);
    pos_ = mark;
    return absl::OkStatus();
  }
  return absl::OkStatus();
}

// The metric name runs to white space, '[' or the end; a backslash takes the
// next byte into the name whatever it is.
absl::Status SpecScanner::ScanMetric() {
  pos_ = SkipSpace(pos_);
  metric_begin_ = pos_;
  while (!AtEnd(pos_) && !absl::ascii_isspace(spec_[pos_]) && spec_[pos_] != '[') {
    if (spec_[pos_] == ']' || spec_[pos_] == ',') {
      return Error(pos_, "unexpected character in metric name");
    }
    if (spec_[pos_] == '\\' && !AtEnd(pos_ + 1)) ++pos_;
    ++pos_;
  }
  metric_end_ = pos_;
  if (metric_begin_ == metric_end_) return Error(metric_begin_, "performance metric name expected");
  pos_ = SkipSpace(pos_);
  return absl::OkStatus();
}

// Finds the closing ']' outside double quotes, honouring backslashes.
absl::Status SpecScanner::ScanInstanceList() {
  if (AtEnd(pos_) || spec_[pos_] != '[') return absl::OkStatus();
  has_list_ = true;
  pos_ = SkipSpace(pos_ + 1);
  list_begin_ = pos_;
  bool quoted = false;
  for (;; ++pos_) {
    if (AtEnd(pos_)) return Error(pos_, quoted ? "closing \" and ] expected" : "closing ] expected");
    char c = spec_[pos_];
    if (c == '\\' && !AtEnd(pos_ + 1)) {
      ++pos_;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (!quoted && c == ']') {
      break;
    }
  }
  list_end_ = pos_;
  ++pos_;
  return absl::OkStatus();
}

// Splits the bracketed list into names. A name that starts with '"' runs to
// the next unescaped '"'; any other runs to white space or ','. A quote in
// the middle of a name is an ordinary byte here though it hid a ']' from
// ScanInstanceList, so a quoted name can run off the list: PCP calls that a
// botch and so does this.
absl::Status SpecScanner::SplitInstances(std::vector<std::string>& names) const {
  size_t pos = list_begin_;
  while (pos < list_end_) {
    std::string name;
    if (spec_[pos] == '"') {
      for (++pos;; ++pos) {
        if (pos >= list_end_) return Error(pos, "closing \" expected (pmParseMetricSpec botch?)");
        if (spec_[pos] == '"') break;
        // ScanInstanceList paired this backslash with a byte inside the list.
        if (spec_[pos] == '\\') ++pos;
        name += spec_[pos];
      }
      ++pos;
    } else {
      for (; pos < list_end_ && !absl::ascii_isspace(spec_[pos]) && spec_[pos] != ','; ++pos) {
        if (spec_[pos] == '\\' && pos + 1 < list_end_) ++pos;
        name += spec_[pos];
      }
    }
    names.push_back(std::move(name));
    while (pos < list_end_ && (absl::ascii_isspace(spec_[pos]) || spec_[pos] == ',')) ++pos;
  }
  return absl::OkStatus();
}

absl::StatusOr<MetricSpec> SpecScanner::Parse(int isarch, std::string_view default_source) {
  MetricSpec out;
  out.isarch = isarch;
  out.source = std::string(default_source);
  pos_ = SkipSpace(0);
  if (absl::Status s = ScanSource(out); !s.ok()) return s;
  if (absl::Status s = ScanMetric(); !s.ok()) return s;
  if (absl::Status s = ScanInstanceList(); !s.ok()) return s;
  pos_ = SkipSpace(pos_);
  if (pos_ < spec_.size()) return Error(pos_, "unexpected extra characters");
  if (has_list_) {
    if (absl::Status s = SplitInstances(out.instances); !s.ok()) return s;
  }
  out.metric = Unescape(spec_.substr(metric_begin_, metric_end_ - metric_begin_));
  return out;
}

}  // namespace

absl::StatusOr<MetricSpec> ParseMetricSpec(std::string_view spec, int isarch,
                                           std::string_view default_source) {
  return SpecScanner(spec).Parse(isarch, default_source);
}

}  // namespace pmapi
