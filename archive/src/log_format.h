// log_format.h: the byte layout of PCP archive files (v2 and v3), as
// constants. Prose and sources: docs/archive-format.md.
//
// Every integer is big-endian. Every record of .meta and of a data volume,
// and the label that opens all three kinds of file, is framed as
//
//   len:4 | payload | len:4          (len counts both length words)
//
// Label payload (v2, 124 bytes):  magic pid sec:4 usec:4 vol
//                                 hostname[64] timezone[40]
// Label payload (v3, 800 bytes):  magic pid sec:8 nsec:4 vol features
//                                 reserved hostname[256] timezone[256]
//                                 zoneinfo[256]
// magic = 0x50052600 | version.
//
// .meta record payload: type:4 then
//   1 DESC        pmid type indom sem units [numnames (len:4 name)*]
//   2 INDOM_V2    sec:4 usec:4 indom n inst[n] stroff[n] strings
//   3 LABEL_V2    sec:4 usec:4 type ident nsets (inst jsonlen json nlabels
//                 nlabels x pmLabel:8)*
//   4 TEXT        type ident text\0
//   5 INDOM       sec:8 nsec:4 indom n inst[n] stroff[n] strings
//   6 INDOM_DELTA as INDOM; stroff -1 marks a deleted instance
//   7 LABEL       as LABEL_V2 with a sec:8 nsec:4 timestamp
//
// .index after the label, unframed fixed entries:
//   v2 (20 bytes): sec:4 usec:4 vol:4 meta:4 data:4
//   v3 (32 bytes): sec:8 nsec:4 vol:4 meta:8 data:8
//
// Data record payload: a pmResult (see core/src/result_codec.h), v2
// with a sec:4 usec:4 timestamp, v3 with sec:8 nsec:4.
#ifndef PMAPI_ARCHIVE_SRC_LOG_FORMAT_H_
#define PMAPI_ARCHIVE_SRC_LOG_FORMAT_H_

#include <cstddef>
#include <cstdint>

namespace pmapi::log_format {

inline constexpr uint32_t kMagic = 0x50052600;
inline constexpr uint32_t kMagicMask = 0xffffff00;
inline constexpr int kVersion2 = 2;
inline constexpr int kVersion3 = 3;

inline constexpr size_t kLabelPayloadV2 = 124;
inline constexpr size_t kLabelPayloadV3 = 800;
// Whole label records, with both length words.
inline constexpr size_t kLabelRecordV2 = kLabelPayloadV2 + 8;
inline constexpr size_t kLabelRecordV3 = kLabelPayloadV3 + 8;

inline constexpr size_t kHostLenV2 = 64;
inline constexpr size_t kTzLenV2 = 40;
inline constexpr size_t kHostLenV3 = 256;
inline constexpr size_t kTzLenV3 = 256;
inline constexpr size_t kZoneinfoLenV3 = 256;

inline constexpr int32_t kVolMeta = -1;
inline constexpr int32_t kVolIndex = -2;

// .meta record types.
inline constexpr uint32_t kTypeDesc = 1;
inline constexpr uint32_t kTypeInDomV2 = 2;
inline constexpr uint32_t kTypeLabelV2 = 3;
inline constexpr uint32_t kTypeText = 4;
inline constexpr uint32_t kTypeInDom = 5;
inline constexpr uint32_t kTypeInDomDelta = 6;
inline constexpr uint32_t kTypeLabel = 7;

inline constexpr size_t kIndexEntryV2 = 20;
inline constexpr size_t kIndexEntryV3 = 32;

// Length word + length word: the framing around every record's payload.
inline constexpr size_t kFrameBytes = 8;

// The only archive feature bit PCP 6.0.3 knows.
inline constexpr uint32_t kFeatureQa = 1u << 31;

// Label types (PM_LABEL_*) and text types (PM_TEXT_*).
inline constexpr uint32_t kLabelContext = 1u << 0;
inline constexpr uint32_t kLabelDomain = 1u << 1;
inline constexpr uint32_t kLabelIndom = 1u << 2;
inline constexpr uint32_t kLabelCluster = 1u << 3;
inline constexpr uint32_t kLabelItem = 1u << 4;
inline constexpr uint32_t kLabelInstances = 1u << 5;
inline constexpr uint32_t kLabelCompound = 1u << 6;
inline constexpr uint32_t kLabelOptional = 1u << 7;
// The most labels one label set may hold (PM_MAXLABELS).
inline constexpr int kMaxLabels = 255;

inline constexpr uint32_t kTextOneline = 1;
inline constexpr uint32_t kTextHelp = 2;
inline constexpr uint32_t kTextPmid = 4;
inline constexpr uint32_t kTextIndom = 8;

}  // namespace pmapi::log_format

#endif  // PMAPI_ARCHIVE_SRC_LOG_FORMAT_H_
