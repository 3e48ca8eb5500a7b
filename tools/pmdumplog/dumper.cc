// pmdumplog's sections; see dumper.h.
#include "dumper.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "pmapi/errors.h"
#include "pmapi/events.h"
#include "pmapi/strings.h"
#include "desc_text.h"
#include "pmapi/pcp_hash_order.h"

namespace pmdumplog {
namespace {

using pmapi::ArchiveTime;

// Returns pmEventFlagsStr's text for an event record's flags.
std::string EventFlagsText(uint32_t flags) {
  static constexpr FlagName kFlags[] = {{1u << 0, "point"}, {1u << 1, "start"},  {1u << 2, "end"},
                                        {1u << 3, "id"},    {1u << 4, "parent"}, {1u << 31, "missed"}};
  return FlagNames(flags, kFlags);
}

// Returns a - b in seconds, as PCP's timestamp subtraction does.
double Subtract(const ArchiveTime& a, const ArchiveTime& b) {
  return static_cast<double>(static_cast<long double>(a.sec - b.sec) +
                             static_cast<long double>(a.nsec - b.nsec) / 1e9L);
}

}  // namespace

std::string PmIDText(pmapi::PmID pmid) {
  if (pmid == pmapi::kPmIDNull) return "PM_ID_NULL";
  return absl::StrCat(pmapi::PmIDDomain(pmid), ".", pmapi::PmIDCluster(pmid), ".",
                      pmapi::PmIDItem(pmid));
}

std::string InDomText(pmapi::InDom indom) {
  if (indom == pmapi::kInDomNull) return "PM_INDOM_NULL";
  return absl::StrCat(pmapi::InDomDomain(indom), ".", pmapi::InDomSerial(indom));
}

void Dumper::Stamp(const ArchiveTime& t) {
  std::string* b = out_.buffer();
  if (opt_.xflag > 0) {
    tf_.AppendDatedStamp(t, b);
  } else {
    tf_.AppendStamp(t, b);
  }
  if (opt_.xflag >= 2) {
    const double d = Subtract(t, archive_.label().start);
    if (tf_.version() >= 3)
      absl::StrAppendFormat(b, " (%.9f)", d);
    else
      absl::StrAppendFormat(b, " (%.6f)", d);
  }
  if (opt_.xflag >= 3) absl::StrAppend(b, " ", static_cast<uint64_t>(t.sec));
  out_.Check();
}

std::vector<std::string> Dumper::NamesOf(pmapi::PmID pmid) const {
  if (opt_.names != nullptr) {
    absl::StatusOr<std::vector<std::string>> all = opt_.names->NameAll(pmid);
    return all.ok() ? *std::move(all) : std::vector<std::string>{};
  }
  const pmapi::MetricDesc* d = archive_.FindDesc(pmid);
  return d == nullptr ? std::vector<std::string>{} : d->names;
}

void Dumper::Names(pmapi::PmID pmid) {
  const std::vector<std::string> names = NamesOf(pmid);
  if (names.empty()) {
    out_.Str("<noname>");
    return;
  }
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out_.Str(" or ");
    out_.Str(names[i]);
  }
}

const std::string& Dumper::MetricHeading(pmapi::PmID pmid) {
  auto [it, fresh] = headings_.try_emplace(pmid);
  if (fresh) {
    std::string& h = it->second;
    absl::StrAppend(&h, "    ", PmIDText(pmid), " (");
    const std::vector<std::string> names = NamesOf(pmid);
    if (names.empty()) {
      h += "<noname>";
    } else {
      h += absl::StrJoin(names, " or ");
    }
    h += "):";
  }
  return it->second;
}

void Dumper::Value(int valfmt, int type, const pmapi::ValueView& v) {
  pmapi::AppendValue(out_.buffer(), valfmt, type, v, 1);
  out_.Check();
}

const pmapi::InDomSnapshot* Dumper::MembershipNow(pmapi::InDom indom) {
  Membership& m = memberships_[indom];
  if (m.snap != nullptr && m.at == now_) return m.snap;
  m.at = now_;
  m.snap = nullptr;
  m.next = 0;
  const std::vector<pmapi::InDomSnapshot>* history = archive_.InDomHistory(indom);
  if (history == nullptr) return nullptr;
  auto after = std::upper_bound(history->begin(), history->end(), now_,
                                [](const ArchiveTime& x, const pmapi::InDomSnapshot& s) {
                                  return x < s.stamp;
                                });
  if (after != history->begin()) m.snap = &*std::prev(after);
  return m.snap;
}

void Dumper::InstanceLabel(pmapi::InDom indom, pmapi::Inst inst) {
  out_.Int(inst);
  // The name in the membership at now_, as Archive::InstanceName finds it.
  std::optional<std::string_view> name;
  if (const pmapi::InDomSnapshot* snap = MembershipNow(indom)) {
    Membership& m = memberships_[indom];
    size_t i = m.next;
    if (i >= snap->size() || snap->inst(i) != inst ||
        (i > 0 && snap->inst(i - 1) == inst)) {  // the first of equal numbers wins
      i = snap->Find(inst);
    }
    if (i < snap->size()) {
      name = snap->name(i);
      m.next = i + 1;
    }
  }
  if (!name) {
    out_.Str(" or ???");
  } else {
    out_.Str(" or \"");
    out_.Str(*name);
    out_.Char('"');
  }
}

void Dumper::Label(bool verbose, const absl::StatusOr<ArchiveTime>& end) {
  const pmapi::ArchiveLabel& l = archive_.label();
  std::string* b = out_.buffer();
  absl::StrAppendFormat(b, "Log Label (Log Format Version %d)\n", l.magic & 0xff);
  absl::StrAppend(b, "Performance metrics from host ", l.hostname, "\n");
  b->append("    commencing ");
  tf_.AppendDatedStamp(l.start, b);
  if (opt_.xflag >= 3) absl::StrAppend(b, " ", static_cast<uint64_t>(l.start.sec));
  b->push_back('\n');
  if (!end.ok()) {
    b->append("    ending     UNKNOWN\n");
  } else {
    b->append("    ending     ");
    tf_.AppendDatedStamp(*end, b);
    if (opt_.xflag >= 3) absl::StrAppend(b, " ", static_cast<uint64_t>(end->sec));
    b->push_back('\n');
  }
  if (verbose) {
    if (!l.timezone.empty()) absl::StrAppend(b, "Archive timezone: ", l.timezone, "\n");
    if (!l.zoneinfo.empty()) absl::StrAppend(b, "Archive zoneinfo: ", l.zoneinfo, "\n");
    if (l.features != 0) {
      const uint32_t unknown = l.features & ~(1u << 31);
      absl::StrAppendFormat(b, "Archive features: 0x%x", l.features);
      if (unknown != 0) absl::StrAppendFormat(b, " [unknown: 0x%x]", unknown);
      b->push_back('\n');
    }
    absl::StrAppend(b, "PID for pmlogger: ", l.pid, "\n");
  }
  out_.Check();
}

void Dumper::Descs() {
  out_.Str("\nDescriptions for Metrics in the Log ...\n");
  // PCP 6.0.3 lists descriptors in its hash table's order.
  pmapi::PcpHashOrder order;
  for (const pmapi::MetricDesc& d : archive_.descs()) order.Add(pmapi::ToPcp(d.desc.pmid));
  for (uint32_t pmid : order.Keys()) {
    const pmapi::MetricDesc* d = archive_.FindDesc(pmapi::PmID{pmid});
    out_.Str("PMID: ");
    out_.Str(PmIDText(d->desc.pmid));
    out_.Str(" (");
    Names(d->desc.pmid);
    out_.Str(")\n");
    AppendDescText(d->desc, out_.buffer());
    out_.Check();
  }
}

void Dumper::LabelSets() {
  out_.Str("\nMetric Labels in the Log ...\n");
  // Group by time, then by type in PCP's order, then by identifier.
  static const uint32_t kTypeOrder[] = {1u << 0, 1u << 1, 1u << 3, 1u << 4, 1u << 2, 1u << 5};
  std::map<ArchiveTime, std::vector<const pmapi::LabelRecord*>> by_time;
  for (const pmapi::LabelRecord& r : archive_.label_records()) by_time[r.stamp].push_back(&r);
  for (auto& [stamp, records] : by_time) {
    if (stamp.sec < 0 || (stamp.sec == 0 && stamp.nsec <= 0)) continue;
    Stamp(stamp);
    out_.Char('\n');
    for (uint32_t type : kTypeOrder) {
      std::vector<const pmapi::LabelRecord*> of_type;
      for (const pmapi::LabelRecord* r : records) {
        if (r->type == type) of_type.push_back(r);
      }
      if (type != (1u << 0)) {
        std::stable_sort(of_type.begin(), of_type.end(),
                         [](const auto* a, const auto* b) { return a->ident < b->ident; });
      }
      for (const pmapi::LabelRecord* r : of_type) {
        AppendLabelSets(*r, out_.buffer());
        out_.Check();
      }
    }
  }
}

void Dumper::HelpText() {
  out_.Str("\nMetric Help Text in the Log ...\n");
  // Sorted by kind (PMID, then InDom), identifier, then one-line before help.
  std::map<std::tuple<int, uint32_t, int>, const std::string*> sorted;
  for (const pmapi::HelpText& t : archive_.help_texts()) {
    const int kind = (t.type & 4) ? 0 : (t.type & 8) ? 1 : -1;
    const int cls = (t.type & 1) ? 0 : (t.type & 2) ? 1 : -1;
    if (kind < 0 || cls < 0) continue;
    sorted[{kind, t.ident, cls}] = &t.text;
  }
  for (const auto& [key, text] : sorted) {
    const auto& [kind, ident, cls] = key;
    out_.Str(kind == 0 ? "PMID: " : "InDom: ");
    out_.Str(kind == 0 ? PmIDText(pmapi::PmID{ident}) : InDomText(pmapi::InDom{ident}));
    if (cls == 0) {
      out_.Str(" [");
      out_.Str(*text);
      out_.Str("]\n");
    } else {
      out_.Char('\n');
      out_.Str(*text);
      out_.Char('\n');
    }
  }
}

void Dumper::DiskInDoms() {
  out_.Str("\nInstance Domains on-disk ...\n");
  for (const pmapi::StoredInDomRecord& r : archive_.indom_records()) {
    Stamp(r.stamp);
    out_.Str(" InDom: ");
    out_.Str(InDomText(r.indom));
    const bool delta = r.kind == pmapi::InDomRecord::Kind::kDelta;
    if (delta) out_.Str(" delta");
    out_.Char(' ');
    out_.Int(r.size());
    out_.Str(" instances\n");
    for (size_t i = 0; i < r.size(); ++i) {
      if (delta && r.deleted(i)) {
        out_.Str("   del ");
        out_.Int(r.inst(i));
        out_.Char('\n');
        continue;
      }
      out_.Str(delta ? "   add " : "   ");
      out_.Int(r.inst(i));
      out_.Str(" or \"");
      out_.Str(r.name(i));
      out_.Str("\"\n");
    }
  }
}

void Dumper::InDoms() {
  out_.Str("\nInstance Domains in the Log ...\n");
  // In the order PCP's hash table holds them: by first appearance.
  pmapi::PcpHashOrder order;
  std::map<pmapi::InDom, bool> seen;
  for (const pmapi::StoredInDomRecord& r : archive_.indom_records()) {
    if (seen.emplace(r.indom, true).second) order.Add(pmapi::ToPcp(r.indom));
  }
  for (uint32_t word : order.Keys()) {
    const pmapi::InDom indom{word};
    out_.Str("InDom: ");
    out_.Str(InDomText(indom));
    out_.Char('\n');
    for (const pmapi::InDomSnapshot& s : *archive_.InDomHistory(indom)) {
      Stamp(s.stamp);
      out_.Char(' ');
      out_.Int(s.size());
      out_.Str(" instances\n");
      for (size_t i = 0; i < s.size(); ++i) {
        out_.Str("   ");
        out_.Int(s.inst(i));
        out_.Str(" or \"");
        out_.Str(s.name(i));
        out_.Str("\"\n");
      }
    }
  }
}

void Dumper::TemporalIndex() {
  std::string* b = out_.buffer();
  b->append("\nTemporal Index\n");
  if (opt_.xflag) b->append("\t\t");
  if (opt_.xflag >= 2) b->append("\t\t");
  if (tf_.version() >= 3) b->push_back('\t');
  b->append("\t\tLog Vol    end(meta)     end(log)\n");
  const std::string& base = archive_.base_name();
  int64_t meta_size = -1;
  int64_t log_size = -1;
  const pmapi::IndexEntry* last = nullptr;
  const std::vector<pmapi::IndexEntry>& index = archive_.index();
  for (size_t i = 0; i < index.size(); ++i) {
    const pmapi::IndexEntry& e = index[i];
    Stamp(e.stamp);
    b = out_.buffer();
    absl::StrAppendFormat(b, "\t  %5d  %11d  %11d\n", e.vol, e.meta_offset, e.data_offset);
    if (i == 0) meta_size = pmapi::ArchiveFileSize(base + ".meta");
    if (last == nullptr || e.vol != last->vol) {
      log_size = pmapi::ArchiveFileSize(absl::StrCat(base, ".", e.vol));
      if (log_size < 0) absl::StrAppendFormat(b, "\t\tWarning: file missing for log volume %d\n", e.vol);
    }
    if (e.stamp.sec < 0 || e.stamp.nsec < 0 || e.stamp.nsec > 999999999) {
      absl::StrAppendFormat(b, "\t\tError: illegal timestamp value (%d sec, %d nsec)\n", e.stamp.sec,
                            e.stamp.nsec);
    }
    if (meta_size != -1 && e.meta_offset > meta_size) {
      absl::StrAppendFormat(b, "\t\tError: offset to meta file past end of file (%d)\n", meta_size);
    }
    if (log_size != -1 && e.data_offset > log_size) {
      absl::StrAppendFormat(b, "\t\tError: offset to log file past end of file (%d)\n", log_size);
    }
    if (last != nullptr) {
      if (e.stamp < last->stamp) {
        b->append("\t\tError: timestamp went backwards in time ");
        tf_.AppendStamp(last->stamp, b);
        b->append(" -> ");
        tf_.AppendStamp(e.stamp, b);
        b->push_back('\n');
      }
      if (e.vol < last->vol) b->append("\t\tError: volume number decreased\n");
      if (e.vol == last->vol && e.meta_offset < last->meta_offset) {
        b->append("\t\tError: offset to meta file decreased\n");
      }
      if (e.vol == last->vol && e.data_offset < last->data_offset) {
        b->append("\t\tError: offset to log file decreased\n");
      }
    }
    last = &e;
    out_.Check();
  }
}

void Dumper::EventParameter(int index, pmapi::PmID pmid, int type,
                            std::span<const uint8_t> value, uint32_t* flags) {
  const pmapi::MetricDesc* d = archive_.FindDesc(pmid);
  if (!NamesOf(pmid).empty()) {
    if (index == 0) out_.Str(" ---\n");
    out_.Str("        ");
    out_.Str(PmIDText(pmid));
    out_.Str(" (");
    Names(pmid);
    out_.Str("):");
  } else {
    if (index == 0) out_.Str(" ---\n");
    out_.Str("        PMID: ");
    out_.Str(PmIDText(pmid));
    out_.Char(':');
  }
  (void)flags;
  if (d == nullptr) {
    out_.Str(" pmLookupDesc: ");
    out_.Str(pmapi::ErrStr(pmapi::kErrPmidLog));
    out_.Char('\n');
    return;
  }
  // Parameters are stored like pmValueBlocks (already in host order): 32-bit
  // integers in place, everything else as a block.
  pmapi::ValueView v;
  int valfmt = pmapi::kValDptr;
  v.vtype = type;
  v.payload = value;
  if ((type == pmapi::kType32 || type == pmapi::kTypeU32) && value.size() >= 4) {
    valfmt = pmapi::kValInsitu;
    std::memcpy(&v.lval, value.data(), 4);
  }
  out_.Str(" value ");
  Value(valfmt, d->desc.type, v);
  out_.Char('\n');
}

void Dumper::EventValue(const pmapi::ValueSet& vs, const pmapi::ValueView& v,
                        const pmapi::Desc& desc, int index) {
  (void)index;
  const bool highres = desc.type == pmapi::kTypeHighResEvent;
  out_.Str("    ");
  out_.Str(PmIDText(vs.pmid));
  out_.Str(" (");
  Names(vs.pmid);
  if (desc.indom != pmapi::kInDomNull) {
    out_.Char('[');
    InstanceLabel(desc.indom, v.inst);
    out_.Str("])");
  } else {
    out_.Char(')');
  }
  out_.Str(": ");
  absl::StatusOr<std::vector<pmapi::EventRecordView>> records =
      pmapi::DecodeEventArray(v.payload, highres);
  if (!records.ok() || vs.valfmt == pmapi::kValInsitu) return;
  if (records->empty()) {
    out_.Str("No event records\n");
    return;
  }
  int nmissed = 0;
  for (const pmapi::EventRecordView& e : *records) {
    if (e.flags & pmapi::kEventFlagMissed) nmissed += e.nparams;
  }
  const int n = static_cast<int>(records->size());
  out_.Int(n);
  if (nmissed > 0) {
    out_.Str(" (and ");
    out_.Int(nmissed);
    out_.Str(" missed)");
  }
  out_.Str(n + nmissed == 1 ? " event record\n" : " event records\n");
  for (int i = 0; i < n; ++i) {
    const pmapi::EventRecordView& e = (*records)[i];
    out_.Str("        --- event record [");
    out_.Int(i);
    out_.Str("] timestamp ");
    // Event timestamps carry their own precision, whatever the archive's;
    // only the microsecond kind honours -x.
    const TimeFormat event_tf = tf_.WithVersion(highres ? 3 : 2);
    if (highres || opt_.xflag == 0) {
      event_tf.AppendStamp(e.stamp, out_.buffer());
    } else {
      event_tf.AppendDatedStamp(e.stamp, out_.buffer());
      if (opt_.xflag >= 2) {
        const ArchiveTime& s = archive_.label().start;
        const ArchiveTime start{s.sec, s.nsec / 1000 * 1000};
        absl::StrAppendFormat(out_.buffer(), " (%.6f)", Subtract(e.stamp, start));
      }
    }
    if (e.flags == 0 && e.params.empty()) {
      out_.Str(" ---\n\t          No parameters\n");
      continue;
    }
    int p = 0;
    if (e.flags != 0) {
      absl::StrAppendFormat(out_.buffer(), " flags 0x%x (%s) ---\n", e.flags,
                            EventFlagsText(e.flags));
      if (e.flags & pmapi::kEventFlagMissed) {
        absl::StrAppendFormat(out_.buffer(), "        ==> %d missed event records\n", e.nparams);
        continue;
      }
      p = 1;
    }
    uint32_t flags = e.flags;
    for (const pmapi::EventParamView& param : e.params) {
      EventParameter(p++, param.pmid, param.type, param.value, &flags);
    }
  }
}

int Dumper::RecordSize(const pmapi::Result& r, const std::vector<const pmapi::ValueSet*>& sets) const {
  int n = (tf_.version() >= 3 ? 4 + 12 + 4 : 4 + 8 + 4) + 4;
  for (const pmapi::ValueSet* set : sets) {
    const pmapi::ValueSet& vs = *set;
    n += 8;
    if (vs.numval <= 0) continue;
    n += 4 + 8 * vs.numval;
    if (vs.valfmt == pmapi::kValInsitu) continue;
    for (int j = 0; j < vs.numval; ++j) {
      const uint32_t vlen = static_cast<uint32_t>(r.value(vs, j).payload.size()) + 4;
      n += static_cast<int>((vlen + 3) & ~3u);
    }
  }
  return n;
}

void Dumper::Record(const pmapi::Result& r, const std::vector<const pmapi::ValueSet*>& sets) {
  if (opt_.sizes) {
    out_.Char('[');
    out_.Int(RecordSize(r, sets));
    out_.Str(" bytes]\n");
  }
  now_ = ArchiveTime::FromNanos(r.timestamp_ns());
  Stamp(now_);
  if (sets.empty()) {
    out_.Str("  <mark>\n");
    return;
  }
  out_.Char(' ');
  out_.Int(sets.size());
  out_.Str(sets.size() > 1 ? " metrics\n" : " metric\n");
  for (const pmapi::ValueSet* vs : sets) Metric(r, *vs);
}

void Dumper::Metric(const pmapi::Result& r, const pmapi::ValueSet& vs) {
  if (vs.numval <= 0) {
    out_.Str("    ");
    out_.Str(PmIDText(vs.pmid));
    out_.Str(" (");
    Names(vs.pmid);
    out_.Str("): ");
    out_.Str(vs.numval == 0 ? "No values returned!" : pmapi::ErrStr(vs.numval));
    out_.Char('\n');
    return;
  }
  pmapi::Desc desc;
  if (const pmapi::MetricDesc* d = archive_.FindDesc(vs.pmid)) {
    desc = d->desc;
  } else {
    desc.indom = pmapi::kInDomNull;
    desc.type = vs.valfmt == pmapi::kValInsitu ? pmapi::kType32 : pmapi::kTypeAggregate;
  }
  for (int j = 0; j < vs.numval; ++j) {
    const pmapi::ValueView v = r.value(vs, j);
    if (desc.type == pmapi::kTypeEvent || desc.type == pmapi::kTypeHighResEvent) {
      EventValue(vs, v, desc, j);
      continue;
    }
    if (j == 0) {
      out_.Str(MetricHeading(vs.pmid));
      if (vs.numval > 1) out_.Str("\n       ");
    } else {
      out_.Str("       ");
    }
    if (desc.indom != pmapi::kInDomNull) {
      out_.Str(" inst [");
      InstanceLabel(desc.indom, v.inst);
      out_.Char(']');
    }
    out_.Str(" value ");
    Value(vs.valfmt, desc.type, v);
    out_.Char('\n');
  }
}

absl::Status Dumper::CheckPosition() {
  if (!opt_.reverse) {
    return archive_.CheckIndexedPosition(opt_.start ? *opt_.start : archive_.label().start);
  }
  std::optional<ArchiveTime> at = opt_.finish;
  if (!at) {
    absl::StatusOr<ArchiveTime> end = archive_.End();
    if (!end.ok()) return absl::OkStatus();
    at = *end;
  }
  return archive_.CheckIndexedPosition(*at, true);
}

int Dumper::Records() {
  pmapi::Result r;
  bool first = true;
  std::vector<const pmapi::ValueSet*> picked;
  std::vector<const pmapi::ValueSet*> slots;
  std::optional<ArchiveTime> last;  // of the previous record kept
  // libpcp positions at the start (the finish, going backwards) through
  // the temporal index.
  if (absl::Status s = CheckPosition(); !s.ok()) return pmapi::PcpCode(s);
  // Named metrics: the other value sets need not be decoded (except for
  // -s, which prints whole record sizes).
  const pmapi::RecordFilter filter =
      opt_.sizes ? pmapi::RecordFilter() : pmapi::RecordFilter(opt_.pmids);
  for (;;) {
    absl::Status s = opt_.reverse ? archive_.ReadPrev(&r, filter) : archive_.ReadNext(&r, filter);
    if (!s.ok()) {
      const int code = pmapi::PcpCode(s);
      return code == pmapi::kErrEol ? 0 : code;
    }
    const ArchiveTime t = ArchiveTime::FromNanos(r.timestamp_ns());
    // As libpcp reads an archive: going forward, a record dated before the
    // one before it is passed over; going backwards, one dated after it
    // ends the archive.
    if (last && (opt_.reverse ? *last < t : t < *last)) {
      if (opt_.reverse) return 0;
      continue;
    }
    last = t;
    if (!opt_.reverse && opt_.start && t < *opt_.start) continue;
    if (opt_.reverse && opt_.finish && *opt_.finish < t) continue;
    picked.clear();
    if (opt_.pmids.empty() || (r.is_mark() && opt_.marks)) {
      for (const pmapi::ValueSet& vs : r.sets()) picked.push_back(&vs);
    } else {
      // Each set goes to the slot of the first requested metric it matches,
      // so sets come out in command-line order.
      slots.assign(opt_.pmids.size(), nullptr);
      for (const pmapi::ValueSet& vs : r.sets()) {
        for (size_t j = 0; j < opt_.pmids.size(); ++j) {
          if (opt_.pmids[j] == vs.pmid) {
            slots[j] = &vs;
            break;
          }
        }
      }
      for (const pmapi::ValueSet* vs : slots) {
        if (vs != nullptr) picked.push_back(vs);
      }
      if (picked.empty()) continue;
    }
    if (first && opt_.reverse) {
      first = false;
      out_.Str("\nLog finished at ");
      tf_.AppendCtime(t.sec, out_.buffer());
      out_.Str(" - dump in reverse order\n");
    }
    if ((!opt_.reverse && opt_.finish && *opt_.finish < t) ||
        (opt_.reverse && opt_.start && t < *opt_.start)) {
      return 0;
    }
    out_.Char('\n');
    Record(r, picked);
  }
}

}  // namespace pmdumplog
