// pmapi/types.h: the core data model shared by every part of the library.
//
// Identifiers (PmID, InDom), metric types and semantics, units, descriptors,
// and the views of a single metric value that the value-conversion functions
// take. The numeric values are PCP's, because they cross the wire and live
// in archives.
//
// Example:
//   pmapi::PmID id = pmapi::MakePmID(29, 0, 6);   // 29.0.6
//   pmapi::Desc d{id, pmapi::kTypeU32, pmapi::kInDomNull, pmapi::kSemInstant,
//                 pmapi::Units{0, 0, 1, 0, 0, 0}};
#ifndef PMAPI_TYPES_H_
#define PMAPI_TYPES_H_

#include <cstdint>
#include <span>
#include <string>

namespace pmapi {

// A Performance Metric Identifier: flag:1 | domain:9 | cluster:12 | item:10,
// most significant bit first. PmID, InDom and Inst are distinct types, so
// one cannot be passed for another; PmID{word} makes one from PCP's number
// and ToPcp() gives the number back where the C interface, the wire or an
// archive needs it.
enum class PmID : uint32_t {};
// An instance domain identifier: flag:1 | domain:9 | serial:22.
enum class InDom : uint32_t {};

inline constexpr PmID kPmIDNull{0xffffffffu};
inline constexpr InDom kInDomNull{0xffffffffu};

[[nodiscard]] constexpr uint32_t ToPcp(PmID id) { return static_cast<uint32_t>(id); }
[[nodiscard]] constexpr uint32_t ToPcp(InDom indom) { return static_cast<uint32_t>(indom); }

// An instance identifier within an instance domain (PCP's int inst).
enum class Inst : int32_t {};
// The instance of the single value of a singular metric, and the "all
// instances" of an instance request (PM_IN_NULL).
inline constexpr Inst kInNull{-1};

[[nodiscard]] constexpr int32_t ToPcp(Inst inst) { return static_cast<int32_t>(inst); }

[[nodiscard]] inline constexpr PmID MakePmID(unsigned domain, unsigned cluster, unsigned item) {
  return PmID{((domain & 0x1ffu) << 22) | ((cluster & 0xfffu) << 10) | (item & 0x3ffu)};
}
[[nodiscard]] inline constexpr unsigned PmIDDomain(PmID id) { return (ToPcp(id) >> 22) & 0x1ffu; }
[[nodiscard]] inline constexpr unsigned PmIDCluster(PmID id) { return (ToPcp(id) >> 10) & 0xfffu; }
[[nodiscard]] inline constexpr unsigned PmIDItem(PmID id) { return ToPcp(id) & 0x3ffu; }

[[nodiscard]] inline constexpr InDom MakeInDom(unsigned domain, unsigned serial) {
  return InDom{((domain & 0x1ffu) << 22) | (serial & 0x3fffffu)};
}
[[nodiscard]] inline constexpr unsigned InDomDomain(InDom indom) {
  return (ToPcp(indom) >> 22) & 0x1ffu;
}
[[nodiscard]] inline constexpr unsigned InDomSerial(InDom indom) { return ToPcp(indom) & 0x3fffffu; }

// pmDesc.type
inline constexpr int kTypeNoSupport = -1;
inline constexpr int kType32 = 0;
inline constexpr int kTypeU32 = 1;
inline constexpr int kType64 = 2;
inline constexpr int kTypeU64 = 3;
inline constexpr int kTypeFloat = 4;
inline constexpr int kTypeDouble = 5;
inline constexpr int kTypeString = 6;
inline constexpr int kTypeAggregate = 7;
inline constexpr int kTypeAggregateStatic = 8;
inline constexpr int kTypeEvent = 9;
inline constexpr int kTypeHighResEvent = 10;
inline constexpr int kTypeUnknown = 255;

// pmDesc.sem
inline constexpr int kSemCounter = 1;
inline constexpr int kSemInstant = 3;
inline constexpr int kSemDiscrete = 4;

// pmValueSet.valfmt
inline constexpr int kValInsitu = 0;
inline constexpr int kValDptr = 1;
inline constexpr int kValSptr = 2;

// Size of a value block's vtype:8|vlen:24 header word, and the largest vlen.
inline constexpr int kValHdrSize = 4;
inline constexpr uint32_t kValVlenMax = 0x00ffffffu;

// pmUnits.scaleSpace (powers of 1024)
inline constexpr int kSpaceByte = 0;
inline constexpr int kSpaceKByte = 1;
inline constexpr int kSpaceMByte = 2;
inline constexpr int kSpaceGByte = 3;
inline constexpr int kSpaceTByte = 4;
inline constexpr int kSpacePByte = 5;
inline constexpr int kSpaceEByte = 6;
inline constexpr int kSpaceZByte = 7;
inline constexpr int kSpaceYByte = 8;
// pmUnits.scaleTime
inline constexpr int kTimeNSec = 0;
inline constexpr int kTimeUSec = 1;
inline constexpr int kTimeMSec = 2;
inline constexpr int kTimeSec = 3;
inline constexpr int kTimeMin = 4;
inline constexpr int kTimeHour = 5;
// pmUnits.scaleCount is a power of ten; this is 10^0.
inline constexpr int kCountOne = 0;

// Dimension and scale of a metric's values, in PCP's logical order
// {dimSpace, dimTime, dimCount, scaleSpace, scaleTime, scaleCount}.
// The dimensions and scaleCount are signed 4-bit quantities (-8..7);
// scaleSpace and scaleTime are unsigned 4-bit quantities (0..15).
struct Units {
  int8_t dim_space = 0;
  int8_t dim_time = 0;
  int8_t dim_count = 0;
  uint8_t scale_space = 0;
  uint8_t scale_time = 0;
  int8_t scale_count = 0;

  friend bool operator==(const Units&, const Units&) = default;
};

// Packs units into PCP's 32-bit wire and disk word (the low byte is zero).
[[nodiscard]] uint32_t PackUnits(const Units& u);
// Unpacks PCP's 32-bit units word; the low byte is ignored.
[[nodiscard]] Units UnpackUnits(uint32_t word);

// A metric descriptor (pmDesc).
struct Desc {
  PmID pmid = kPmIDNull;
  int type = kTypeNoSupport;
  InDom indom = kInDomNull;
  int sem = 0;
  Units units;

  friend bool operator==(const Desc&, const Desc&) = default;
};

// One value of a metric in a chosen type (pmAtomValue). Numeric types use
// the union members; STRING and AGGREGATE values own their bytes in
// `bytes` (a STRING holds its characters without the terminating NUL).
struct AtomValue {
  union {
    int32_t l;
    uint32_t ul;
    int64_t ll;
    uint64_t ull;
    float f;
    double d;
  };
  std::string bytes;

  AtomValue() : ull(0) {}
};

// A view of one pmValue: its instance, and either the in-situ 32-bit value
// (valfmt PM_VAL_INSITU) or a value block (any other valfmt). The block is
// described by its vtype and its payload bytes: the vlen-4 bytes after the
// header word, numbers in host byte order.
struct ValueView {
  Inst inst = kInNull;
  int32_t lval = 0;
  int vtype = kTypeUnknown;
  std::span<const uint8_t> payload;
};

}  // namespace pmapi

#endif  // PMAPI_TYPES_H_
