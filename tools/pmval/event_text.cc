#include "event_text.h"

#include <vector>

#include "absl/strings/str_format.h"
#include "pmapi/errors.h"
#include "pmapi/events.h"
#include "pmapi/strings.h"
#include "pmapi/timefmt.h"
#include "pmapi/timezone.h"

namespace pmval {

namespace {

constexpr int kFlagMissed = static_cast<int>(0x80000000u);

std::string RecordStamp(const pmapi::TimeZone& zone, int64_t ns, bool highres) {
  const int64_t sec = ns / 1000000000;
  const int64_t nsec = ns % 1000000000;
  absl::StatusOr<std::string> s = highres ? pmapi::HighResStamp(zone, sec, nsec)
                                          : pmapi::PrintStamp(zone, sec, nsec / 1000);
  return s.ok() ? *s : std::string();
}

}  // namespace

const EventPrinter::Param& EventPrinter::Lookup(pmapi::PmID pmid) {
  auto it = params_.find(pmid);
  if (it != params_.end()) return it->second;
  Param p;
  absl::StatusOr<std::vector<std::string>> names = ctx_->NameAll(pmid);
  if (names.ok() && !names->empty()) {
    p.name = names->front();
    p.ok = true;
    if (pmid != pmapi::kEventFlagsPmid && pmid != pmapi::kEventMissedPmid) {
      absl::StatusOr<pmapi::Desc> d = ctx_->LookupDesc(pmid);
      p.ok = d.ok();
      if (d.ok()) p.desc = *d;
    }
  }
  return params_.emplace(pmid, p).first->second;
}

std::string EventPrinter::InstanceLabel(pmapi::InDom indom, pmapi::Inst inst) {
  absl::StatusOr<std::string> name = ctx_->NameInDom(indom, inst);
  return name.ok() ? absl::StrFormat("[\"%s\"]", *name) : absl::StrFormat("[%d]", inst);
}

std::string EventPrinter::ParamValues(const Param& p, const pmapi::Result& r,
                                      const pmapi::ValueSet& vs) {
  if (vs.numval == 0) return "";
  if (vs.numval < 0) return absl::StrFormat("%s: Error: %s\n", p.name, pmapi::ErrStr(vs.numval));
  std::string out = "    " + p.name;
  for (int j = 0; j < vs.numval; ++j) {
    const pmapi::ValueView v = r.value(vs, j);
    if (p.desc.indom != pmapi::kInDomNull) {
      if (vs.numval > 1) out += "\n        ";
      out += InstanceLabel(p.desc.indom, v.inst);
    }
    out += " ";
    if (p.desc.type == pmapi::kTypeAggregate || p.desc.type == pmapi::kTypeAggregateStatic) {
      out += "[";
      for (uint8_t b : v.payload) out += absl::StrFormat("%02x", b);
      out += "]\n";
    } else {
      out += pmapi::FormatValue(vs.valfmt, p.desc.type, v, 1, zone_) + "\n";
    }
  }
  return out;
}

std::string EventPrinter::Record(const pmapi::Result& r, size_t index, bool highres) {
  std::string out = "  " + RecordStamp(zone_, r.timestamp_ns(), highres);
  out += absl::StrFormat(" --- event record [%d]", index);
  if (r.numpmid() == 0) return out + " ---\n    ==> No parameters\n";
  int flags = 0;
  const auto sets = r.sets();
  for (size_t i = 0; i < sets.size(); ++i) {
    const Param& p = Lookup(sets[i].pmid);
    if (!p.ok) {
      out += absl::StrFormat("\t%s: pmNameID: %s\n", pmapi::IDStr(sets[i].pmid),
                             pmapi::ErrStr(pmapi::kErrPmid));
      continue;
    }
    if (i == 0 && sets[i].pmid == pmapi::kEventFlagsPmid && sets[i].numval > 0) {
      flags = r.value(sets[i], 0).lval;
      out += absl::StrFormat(" flags 0x%x (%s) ---\n", flags, pmapi::EventFlagsStr(flags));
      continue;
    }
    if (i == 0) out += " ---\n";
    if ((flags & kFlagMissed) != 0 && i == 1 && sets[i].pmid == pmapi::kEventMissedPmid &&
        sets[i].numval > 0) {
      out += absl::StrFormat("    ==> %d missed event records\n", r.value(sets[i], 0).lval);
      continue;
    }
    out += ParamValues(p, r, sets[i]);
  }
  return out;
}

std::string EventPrinter::Records(int valfmt, const pmapi::ValueView& v) {
  const bool highres = desc_.type == pmapi::kTypeHighResEvent;
  absl::StatusOr<std::vector<pmapi::Result>> records =
      highres ? pmapi::UnpackHighResEventRecords(v, valfmt) : pmapi::UnpackEventRecords(v, valfmt);
  if (!records.ok()) {
    return absl::StrFormat(" pmUnpackEventRecords: %s\n",
                           pmapi::ErrStr(pmapi::PcpCode(records.status())));
  }
  std::string out = absl::StrFormat(" %d event records\n", records->size());
  for (size_t i = 0; i < records->size(); ++i) {
    out += Record((*records)[i], i, highres);
  }
  return out;
}

std::string EventPrinter::Value(const std::optional<std::string>& inst_name, int valfmt,
                                const pmapi::ValueView& v) {
  std::string out = metric_;
  if (inst_name) out += "[" + *inst_name + "]";
  return out + ":" + Records(valfmt, v);
}

}  // namespace pmval
