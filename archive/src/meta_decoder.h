// meta_decoder.h: decoders for the records of an archive's .meta and
// .index files and for the label record that opens every archive file.
//
// Each decoder takes the bytes of one record without its framing (the
// payload between the two length words, after the type word for .meta
// records) and returns the decoded record or PcpError(PM_ERR_LOGREC) if a
// count, length or offset does not fit. They check exactly what libpcp
// checks, so a corrupt archive fails (or not) as it does with PCP.
//
// Example:
//   absl::StatusOr<pmapi::MetricDesc> d = pmapi::DecodeDesc(payload);
#ifndef PMAPI_ARCHIVE_SRC_META_DECODER_H_
#define PMAPI_ARCHIVE_SRC_META_DECODER_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "pmapi/archive.h"

namespace pmapi {

// Decodes the label record at the start of `file` (a whole archive file).
// Returns PM_ERR_NODATA for a file too short to hold a length and a magic
// word, PM_ERR_LABEL for a bad length, short label, unknown version, bad
// trailer or bad magic.
absl::StatusOr<ArchiveLabel> DecodeLabel(std::span<const uint8_t> file);

// Returns the size of a whole label record for `version` (2 or 3).
size_t LabelRecordBytes(int version);

// TYPE_DESC payload (after the type word).
absl::StatusOr<MetricDesc> DecodeDesc(std::span<const uint8_t> payload);

// TYPE_INDOM_V2 (kind kV2), TYPE_INDOM (kFull) or TYPE_INDOM_DELTA
// (kDelta) payload.
absl::StatusOr<InDomRecord> DecodeInDom(std::span<const uint8_t> payload,
                                        InDomRecord::Kind kind);

// The same record with its names left in the payload (valid while it is).
struct InDomRecordView {
  InDomRecord::Kind kind = InDomRecord::Kind::kFull;
  ArchiveTime stamp;
  InDom indom = kInDomNull;
  std::vector<Inst> insts;
  std::vector<std::string_view> names;  // empty for a deleted instance
  std::vector<bool> deleted;
};
// Decodes as DecodeInDom into *out (whose buffers are reused). Returns
// PM_ERR_LOGREC as DecodeInDom does.
absl::Status DecodeInDomView(std::span<const uint8_t> payload, InDomRecord::Kind kind,
                             InDomRecordView* out);

// TYPE_LABEL_V2 (v3 == false) or TYPE_LABEL (v3 == true) payload.
absl::StatusOr<LabelRecord> DecodeLabelRecord(std::span<const uint8_t> payload, bool v3);

// TYPE_TEXT payload.
absl::StatusOr<HelpText> DecodeText(std::span<const uint8_t> payload);

// The entries of a .index file after its label (`body`). A partial entry
// at the end is ignored, as libpcp ignores it.
std::vector<IndexEntry> DecodeIndex(std::span<const uint8_t> body, int version);

}  // namespace pmapi

#endif  // PMAPI_ARCHIVE_SRC_META_DECODER_H_
