// The metadata store of an open archive: .meta read record by record into
// descriptors (named in PCP's order), instance domains (every record, the
// membership each leaves, the instance tables), label sets and help text;
// and the public calls that answer from it.
#include <algorithm>
#include <utility>

#include "archive_impl.h"
#include "byte_reader.h"
#include "log_format.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

namespace lf = log_format;

// Orders a membership's entries by instance number, stably (equal numbers
// keep their order): libpcp keeps every membership it loads sorted so, full
// records as well as rebuilt deltas.
void SortByInstance(const InstanceTable& table, std::vector<uint32_t>* entries) {
  auto by_inst = [&table](uint32_t a, uint32_t b) { return table.inst(a) < table.inst(b); };
  if (!std::is_sorted(entries->begin(), entries->end(), by_inst)) {
    std::stable_sort(entries->begin(), entries->end(), by_inst);
  }
}

}  // namespace

absl::Status Archive::Impl::LoadMeta() {
  // Record by record, so only a small window of the file is held at a time.
  uint64_t at = LabelRecordBytes(label.version);
  for (;;) {
    absl::StatusOr<std::span<const uint8_t>> head = meta_file.Read(at, 8);
    if (!head.ok()) return head.status();
    // A partial header at the end of the file is where libpcp stops too.
    if (head->size() < 8) return absl::OkStatus();
    const uint32_t len = LoadBigEndian32(head->data());
    const uint32_t type = LoadBigEndian32(head->data() + 4);
    if (len < 12) return PcpError(kErrLogrec);
    absl::StatusOr<std::span<const uint8_t>> rec = meta_file.Read(at, len);
    if (!rec.ok()) return rec.status();
    if (rec->size() < len || LoadBigEndian32(rec->data() + len - 4) != len) {
      return PcpError(kErrLogrec);
    }
    absl::Status s = AddMetaRecord(type, rec->subspan(8, len - 12));
    if (!s.ok()) return s;
    at += len;
  }
}

absl::Status Archive::Impl::AddMetaRecord(uint32_t type, std::span<const uint8_t> payload) {
  switch (type) {
    case lf::kTypeDesc: {
      absl::StatusOr<MetricDesc> d = DecodeDesc(payload);
      if (!d.ok()) return d.status();
      // A name that clashes with one already added is dropped, as PCP
      // drops it.
      for (const std::string& n : d->names) pmns->AddName(n, d->desc.pmid).IgnoreError();
      d->names.clear();
      if (desc_by_pmid.emplace(d->desc.pmid, descs.size()).second) descs.push_back(std::move(*d));
      return absl::OkStatus();
    }
    case lf::kTypeInDomV2:
    case lf::kTypeInDom:
    case lf::kTypeInDomDelta: {
      InDomRecord::Kind kind = type == lf::kTypeInDomV2 ? InDomRecord::Kind::kV2
                               : type == lf::kTypeInDom ? InDomRecord::Kind::kFull
                                                        : InDomRecord::Kind::kDelta;
      absl::Status s = DecodeInDomView(payload, kind, &indom_scratch);
      if (!s.ok()) return s;
      AddInDom(indom_scratch);
      return absl::OkStatus();
    }
    case lf::kTypeLabelV2:
    case lf::kTypeLabel: {
      absl::StatusOr<LabelRecord> rec = DecodeLabelRecord(payload, type == lf::kTypeLabel);
      if (!rec.ok()) return rec.status();
      label_records.push_back(std::move(*rec));
      return absl::OkStatus();
    }
    case lf::kTypeText: {
      absl::StatusOr<HelpText> t = DecodeText(payload);
      if (!t.ok()) return t.status();
      help_texts.push_back(std::move(*t));
      return absl::OkStatus();
    }
    default:
      return absl::OkStatus();  // unknown record types are skipped
  }
}

void Archive::Impl::NameDescs() {
  for (MetricDesc& d : descs) {
    absl::StatusOr<std::vector<std::string>> names = pmns->NameAll(d.desc.pmid);
    if (names.ok()) d.names = std::move(*names);
  }
}

void Archive::Impl::AddInDom(const InDomRecordView& rec) {
  InstanceTable& table = instance_tables[rec.indom];
  StoredInDomRecord stored;
  stored.kind = rec.kind;
  stored.stamp = rec.stamp;
  stored.indom = rec.indom;
  stored.table = &table;
  stored.refs.reserve(rec.insts.size());
  for (size_t i = 0; i < rec.insts.size(); ++i) {
    // Instance numbers are never negative (the decoder checks).
    stored.refs.push_back(rec.deleted[i] ? StoredInDomRecord::kDeleted | static_cast<uint32_t>(ToPcp(rec.insts[i]))
                                         : table.Intern(rec.insts[i], rec.names[i]));
  }
  std::vector<InDomSnapshot>& history = indom_history[rec.indom];
  InDomSnapshot snap;
  snap.stamp = rec.stamp;
  snap.table = &table;
  snap.entries = Membership(stored, history);
  SortByInstance(table, &snap.entries);
  // Keep the history in time order even if records arrive out of order.
  auto at = std::upper_bound(history.begin(), history.end(), snap.stamp,
                             [](const ArchiveTime& t, const InDomSnapshot& s) { return t < s.stamp; });
  // A record repeating one of the same time adds nothing, but as PCP does,
  // the one it repeats becomes the latest of its time.
  for (auto it = at; it != history.begin() && std::prev(it)->stamp == snap.stamp; --it) {
    if (std::prev(it)->entries == snap.entries) {
      std::rotate(std::prev(it), it, at);
      indom_records.push_back(std::move(stored));
      return;
    }
  }
  history.insert(at, std::move(snap));
  indom_records.push_back(std::move(stored));
}

std::vector<uint32_t> Archive::Impl::Membership(const StoredInDomRecord& rec,
                                                const std::vector<InDomSnapshot>& history) const {
  std::vector<uint32_t> out;
  const bool delta = rec.kind == InDomRecord::Kind::kDelta && !history.empty();
  if (delta) {
    // Every instance the delta names leaves the membership before it; the
    // ones it adds come back after.
    std::vector<Inst> named(rec.size());
    for (size_t i = 0; i < rec.size(); ++i) named[i] = rec.inst(i);
    std::sort(named.begin(), named.end());
    const InDomSnapshot& before = history.back();
    out.reserve(before.size() + rec.size());
    for (size_t i = 0; i < before.size(); ++i) {
      if (!std::binary_search(named.begin(), named.end(), before.inst(i))) {
        out.push_back(before.entries[i]);
      }
    }
  } else {
    out.reserve(rec.size());
  }
  for (size_t i = 0; i < rec.size(); ++i) {
    if (!rec.deleted(i)) out.push_back(rec.refs[i]);
  }
  return out;
}

const MetricDesc* Archive::FindDesc(PmID pmid) const {
  auto it = impl_->desc_by_pmid.find(pmid);
  return it == impl_->desc_by_pmid.end() ? nullptr : &impl_->descs[it->second];
}

const Pmns& Archive::pmns() const { return *impl_->pmns; }

std::shared_ptr<const Pmns> Archive::shared_pmns() const { return impl_->pmns; }

std::vector<InDom> Archive::indoms() const {
  std::vector<InDom> out;
  for (const auto& [indom, history] : impl_->indom_history) out.push_back(indom);
  return out;
}

const std::vector<InDomSnapshot>* Archive::InDomHistory(InDom indom) const {
  auto it = impl_->indom_history.find(indom);
  return it == impl_->indom_history.end() ? nullptr : &it->second;
}

std::optional<std::string_view> Archive::InstanceName(InDom indom, Inst inst,
                                                     ArchiveTime t) const {
  const std::vector<InDomSnapshot>* history = InDomHistory(indom);
  if (history == nullptr) return std::nullopt;
  auto at = std::upper_bound(history->begin(), history->end(), t,
                             [](const ArchiveTime& x, const InDomSnapshot& s) { return x < s.stamp; });
  if (at == history->begin()) return std::nullopt;
  const InDomSnapshot& snap = *std::prev(at);
  const size_t i = snap.Find(inst);
  if (i == snap.size()) return std::nullopt;
  return snap.name(i);
}

// The instance tables and memberships.

uint32_t InstanceTable::Intern(Inst inst, std::string_view name) {
  auto latest = latest_.try_emplace(inst, kNoEntry).first;
  for (uint32_t e = latest->second; e != kNoEntry; e = earlier_[e]) {
    if (this->name(e) == name) return e;
  }
  const uint32_t entry = static_cast<uint32_t>(insts_.size());
  insts_.push_back(inst);
  chars_.append(name);
  ends_.push_back(chars_.size());
  earlier_.push_back(latest->second);
  latest->second = entry;
  return entry;
}

void InstanceTable::Freeze() {
  std::unordered_map<Inst, uint32_t>().swap(latest_);
  std::vector<uint32_t>().swap(earlier_);
  insts_.shrink_to_fit();
  ends_.shrink_to_fit();
  chars_.shrink_to_fit();
}

size_t InDomSnapshot::Find(Inst want) const {
  size_t lo = 0, hi = entries.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (inst(mid) < want) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < entries.size() && inst(lo) == want ? lo : entries.size();
}

}  // namespace pmapi
