// Fuzz target: a whole archive, opened and walked through an archive
// context. The input is a file set:
//
//   meta_len:4 index_len:4 meta[meta_len] index[index_len] volume0[rest]
//
// (big-endian lengths, each cut down to what is left). An index_len of zero
// means the archive has no .index file. The files are written to a scratch
// directory as fz.meta, fz.index and fz.0, then walked.
#include <algorithm>
#include <cstdint>
#include <span>
#include <string>

#include "archive_walk.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::span<const uint8_t> in(data, size);
  if (size < 8) return 0;
  size_t meta_len = std::min<size_t>(fuzz::Word(in, 0), size - 8);
  size_t index_len = std::min<size_t>(fuzz::Word(in, 4), size - 8 - meta_len);
  std::span<const uint8_t> meta = in.subspan(8, meta_len);
  std::span<const uint8_t> index = in.subspan(8 + meta_len, index_len);
  std::span<const uint8_t> volume = in.subspan(8 + meta_len + index_len);

  const std::string base = fuzz::ScratchDir() + "/fz";
  if (!fuzz::WriteFile(base + ".meta", meta) || !fuzz::WriteFile(base + ".0", volume)) return 0;
  if (index_len > 0) {
    if (!fuzz::WriteFile(base + ".index", index)) return 0;
  } else {
    fuzz::RemoveFile(base + ".index");
  }
  fuzz::ArchiveWalk w = fuzz::WalkArchive(base);
  fuzz::Consume(w.digest);
  return 0;
}
