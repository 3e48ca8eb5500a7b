// Decoders for label, .meta and .index records; layouts in log_format.h.
#include "meta_decoder.h"

#include <cstring>
#include <string>

#include "byte_reader.h"
#include "log_format.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

namespace lf = log_format;

// Returns the NUL-terminated string in field (at most field.size()-1 bytes,
// as libpcp reads it).
std::string FixedString(std::span<const uint8_t> field) {
  const size_t limit = field.empty() ? 0 : field.size() - 1;
  size_t n = 0;
  while (n < limit && field[n] != 0) ++n;
  return std::string(reinterpret_cast<const char*>(field.data()), n);
}

// A v2 microsecond field as PCP widens it: usec * 1000 kept in the 32-bit
// nanosecond field of its timestamps, so a corrupt value wraps as PCP's
// does (and prints as PCP prints it).
int64_t V2Nanos(int32_t usec) {
  return static_cast<int32_t>(static_cast<uint32_t>(usec) * 1000u);
}

bool ReadTime(ByteReader& r, bool v3, ArchiveTime* t) {
  if (v3) {
    int64_t sec;
    uint32_t nsec;
    if (!r.Seconds64(&sec) || !r.U32(&nsec)) return false;
    t->sec = sec;
    t->nsec = nsec;
    return true;
  }
  int32_t sec, usec;
  if (!r.I32(&sec) || !r.I32(&usec)) return false;
  t->sec = sec;
  t->nsec = V2Nanos(usec);
  return true;
}

void DecodeLabelV2(ByteReader& r, ArchiveLabel* l) {
  int32_t sec = 0, usec = 0;
  std::span<const uint8_t> host, tz;
  r.I32(&l->pid);
  r.I32(&sec);
  r.I32(&usec);
  r.I32(&l->vol);
  r.Bytes(lf::kHostLenV2, &host);
  r.Bytes(lf::kTzLenV2, &tz);
  l->start = ArchiveTime{sec, V2Nanos(usec)};
  l->hostname = FixedString(host);
  l->timezone = FixedString(tz);
}

void DecodeLabelV3(ByteReader& r, ArchiveLabel* l) {
  int64_t sec = 0;
  uint32_t nsec = 0, reserved = 0;
  std::span<const uint8_t> host, tz, zone;
  r.I32(&l->pid);
  r.Seconds64(&sec);
  r.U32(&nsec);
  r.I32(&l->vol);
  r.U32(&l->features);
  r.U32(&reserved);
  r.Bytes(lf::kHostLenV3, &host);
  r.Bytes(lf::kTzLenV3, &tz);
  r.Bytes(lf::kZoneinfoLenV3, &zone);
  l->start = ArchiveTime{sec, nsec};
  l->hostname = FixedString(host);
  l->timezone = FixedString(tz);
  l->zoneinfo = FixedString(zone);
}

// Reads `n` instance ids and string offsets, then the names from the
// string table that follows. Returns false on any bad offset.
bool ReadInstances(ByteReader& r, int32_t n, InDomRecordView* rec) {
  if (n < 0 || !r.Has(uint64_t(n) * 8)) return false;
  rec->insts.resize(n);
  rec->names.assign(n, std::string_view());
  rec->deleted.assign(n, false);
  for (int32_t i = 0; i < n; ++i) r.I32(&rec->insts[i]);
  std::span<const uint8_t> offsets;
  r.Bytes(uint64_t(n) * 4, &offsets);
  std::span<const uint8_t> table;
  r.Bytes(r.remaining(), &table);
  for (int32_t i = 0; i < n; ++i) {
    const int32_t offset = static_cast<int32_t>(LoadBigEndian32(offsets.data() + size_t(i) * 4));
    if (ToPcp(rec->insts[i]) < 0) return false;
    if (offset == -1 && rec->kind == InDomRecord::Kind::kDelta) {
      rec->deleted[i] = true;
      continue;
    }
    if (offset < 0 || size_t(offset) >= table.size()) return false;
    const uint8_t* start = table.data() + offset;
    const void* nul = std::memchr(start, 0, table.size() - offset);
    if (nul == nullptr) return false;
    rec->names[i] = std::string_view(reinterpret_cast<const char*>(start),
                                     static_cast<const uint8_t*>(nul) - start);
  }
  return true;
}

bool ReadLabelSet(ByteReader& r, LabelSet* set) {
  uint32_t jsonlen;
  int32_t nlabels;
  std::span<const uint8_t> json;
  if (!r.I32(&set->inst) || !r.U32(&jsonlen) || !r.Bytes(jsonlen, &json)) return false;
  if (!r.I32(&nlabels)) return false;
  // pmlogger writes an agent's error code as a negative count: a set with
  // no labels, as libpcp reads it.
  if (nlabels < 0) nlabels = 0;
  if (nlabels > lf::kMaxLabels || !r.Has(uint64_t(nlabels) * 8)) return false;
  set->json.assign(reinterpret_cast<const char*>(json.data()), json.size());
  set->labels.resize(nlabels);
  for (LabelEntry& l : set->labels) {
    uint32_t w1 = 0, w2 = 0;
    r.U32(&w1);
    r.U32(&w2);
    l.name = static_cast<uint16_t>(w1 >> 16);
    l.namelen = static_cast<uint8_t>(w1 >> 8);
    l.flags = static_cast<uint8_t>(w1);
    l.value = static_cast<uint16_t>(w2 >> 16);
    l.valuelen = static_cast<uint16_t>(w2);
    if (size_t(l.name) + l.namelen > jsonlen || size_t(l.value) + l.valuelen > jsonlen) {
      return false;
    }
  }
  return true;
}

}  // namespace

size_t LabelRecordBytes(int version) {
  return version == lf::kVersion3 ? lf::kLabelRecordV3 : lf::kLabelRecordV2;
}

absl::StatusOr<ArchiveLabel> DecodeLabel(std::span<const uint8_t> file) {
  ByteReader r(file);
  uint32_t length, magic;
  if (!r.U32(&length) || !r.U32(&magic)) return PcpError(kErrNodata);
  ArchiveLabel l;
  l.magic = magic;
  l.version = static_cast<int>(magic & 0xff);
  if (l.version != lf::kVersion2 && l.version != lf::kVersion3) return PcpError(kErrLabel);
  const size_t expect = LabelRecordBytes(l.version);
  if (length != expect || file.size() < expect) return PcpError(kErrLabel);
  if (l.version == lf::kVersion3) {
    DecodeLabelV3(r, &l);
  } else {
    DecodeLabelV2(r, &l);
  }
  uint32_t trailer = 0;
  if (!r.U32(&trailer) || trailer != length) return PcpError(kErrLabel);
  if ((magic & lf::kMagicMask) != lf::kMagic) return PcpError(kErrLabel);
  return l;
}

absl::StatusOr<MetricDesc> DecodeDesc(std::span<const uint8_t> payload) {
  ByteReader r(payload);
  MetricDesc d;
  uint32_t type, sem, units;
  if (!r.U32(&d.desc.pmid) || !r.U32(&type) || !r.U32(&d.desc.indom) || !r.U32(&sem) ||
      !r.U32(&units)) {
    return PcpError(kErrLogrec);
  }
  d.desc.type = static_cast<int>(type);
  d.desc.sem = static_cast<int>(sem);
  d.desc.units = UnpackUnits(units);
  // A descriptor with no names has no numnames word at all.
  if (r.remaining() == 0) return d;
  int32_t numnames;
  if (!r.I32(&numnames) || numnames < 0 || !r.Has(uint64_t(numnames) * 4)) {
    return PcpError(kErrLogrec);
  }
  d.names.reserve(numnames);
  for (int32_t i = 0; i < numnames; ++i) {
    uint32_t len;
    std::span<const uint8_t> name;
    if (!r.U32(&len) || !r.Bytes(len, &name)) return PcpError(kErrLogrec);
    // PCP reads a name as a C string: it ends at a NUL the length covers.
    std::string_view text(reinterpret_cast<const char*>(name.data()), name.size());
    d.names.emplace_back(text.substr(0, text.find('\0')));
  }
  return d;
}

absl::Status DecodeInDomView(std::span<const uint8_t> payload, InDomRecord::Kind kind,
                             InDomRecordView* out) {
  ByteReader r(payload);
  out->kind = kind;
  int32_t n;
  if (!ReadTime(r, kind != InDomRecord::Kind::kV2, &out->stamp) || !r.U32(&out->indom) ||
      !r.I32(&n) || !ReadInstances(r, n, out)) {
    return PcpError(kErrLogrec);
  }
  return absl::OkStatus();
}

absl::StatusOr<InDomRecord> DecodeInDom(std::span<const uint8_t> payload,
                                        InDomRecord::Kind kind) {
  InDomRecordView view;
  absl::Status s = DecodeInDomView(payload, kind, &view);
  if (!s.ok()) return s;
  InDomRecord rec;
  rec.kind = kind;
  rec.stamp = view.stamp;
  rec.indom = view.indom;
  rec.insts = std::move(view.insts);
  rec.names.assign(view.names.begin(), view.names.end());
  rec.deleted = std::move(view.deleted);
  return rec;
}

absl::StatusOr<LabelRecord> DecodeLabelRecord(std::span<const uint8_t> payload, bool v3) {
  ByteReader r(payload);
  LabelRecord rec;
  int32_t nsets;
  if (!ReadTime(r, v3, &rec.stamp) || !r.U32(&rec.type) || !r.U32(&rec.ident) ||
      !r.I32(&nsets) || nsets < 0 || !r.Has(uint64_t(nsets) * 12)) {
    return PcpError(kErrLogrec);
  }
  rec.sets.resize(nsets);
  for (LabelSet& set : rec.sets) {
    if (!ReadLabelSet(r, &set)) return PcpError(kErrLogrec);
  }
  return rec;
}

absl::StatusOr<HelpText> DecodeText(std::span<const uint8_t> payload) {
  ByteReader r(payload);
  HelpText t;
  if (!r.U32(&t.type) || !r.U32(&t.ident)) return PcpError(kErrLogrec);
  std::span<const uint8_t> rest;
  r.Bytes(r.remaining(), &rest);
  size_t n = 0;
  while (n < rest.size() && rest[n] != 0) ++n;
  t.text.assign(reinterpret_cast<const char*>(rest.data()), n);
  return t;
}

std::vector<IndexEntry> DecodeIndex(std::span<const uint8_t> body, int version) {
  const bool v3 = version == lf::kVersion3;
  const size_t entry = v3 ? lf::kIndexEntryV3 : lf::kIndexEntryV2;
  std::vector<IndexEntry> out;
  out.reserve(body.size() / entry);
  ByteReader r(body);
  while (r.Has(entry)) {
    IndexEntry e;
    ReadTime(r, v3, &e.stamp);
    r.I32(&e.vol);
    if (v3) {
      r.I64(&e.meta_offset);
      r.I64(&e.data_offset);
    } else {
      int32_t meta = 0, data = 0;
      r.I32(&meta);
      r.I32(&data);
      e.meta_offset = meta;
      e.data_offset = data;
    }
    out.push_back(e);
  }
  return out;
}

}  // namespace pmapi
