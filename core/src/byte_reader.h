// byte_reader.h: a bounds-checked reader of big-endian integers and floats
// over a byte span, shared by the archive decoders and the PDU codec.
//
// Every multi-byte quantity PCP puts on disk or on the wire is big-endian.
// Values are assembled byte by byte (no struct is ever cast onto bytes), and
// every read checks what remains first: a read past the end returns false,
// leaves the output untouched and does not move the position.
//
// Example:
//   pmapi::ByteReader r(record);
//   uint32_t pmid;
//   int32_t numval;
//   if (!r.U32(&pmid) || !r.I32(&numval)) return PcpError(kErrLogrec);
//   if (!r.Has(4 * size_t(numval))) return PcpError(kErrLogrec);
#ifndef PMAPI_SRC_BYTE_READER_H_
#define PMAPI_SRC_BYTE_READER_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

#include "pmapi/types.h"

namespace pmapi {

// Returns the big-endian 32-bit word at p. REQUIRES: p[0..3] readable.
inline uint32_t LoadBigEndian32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) |
         uint32_t{p[3]};
}

// Returns the big-endian 64-bit word at p. REQUIRES: p[0..7] readable.
inline uint64_t LoadBigEndian64(const uint8_t* p) {
  return (uint64_t{LoadBigEndian32(p)} << 32) | LoadBigEndian32(p + 4);
}

// Writes v big-endian to p[0..3]. REQUIRES: p[0..3] writable.
inline void StoreBigEndian32(uint8_t* p, uint32_t v) {
  p[0] = uint8_t(v >> 24);
  p[1] = uint8_t(v >> 16);
  p[2] = uint8_t(v >> 8);
  p[3] = uint8_t(v);
}

// Writes v big-endian to p[0..7]. REQUIRES: p[0..7] writable.
inline void StoreBigEndian64(uint8_t* p, uint64_t v) {
  StoreBigEndian32(p, uint32_t(v >> 32));
  StoreBigEndian32(p + 4, uint32_t(v));
}

class ByteReader {
 public:
  ByteReader() = default;
  explicit ByteReader(std::span<const uint8_t> data) : data_(data) {}

  // Returns the number of unread bytes.
  size_t remaining() const { return data_.size() - pos_; }
  // Returns the offset of the next unread byte from the start of the span.
  size_t position() const { return pos_; }
  // Returns the whole span being read.
  std::span<const uint8_t> data() const { return data_; }
  // Returns true if at least n more bytes can be read.
  bool Has(size_t n) const { return n <= remaining(); }

  // Each reader returns false (and changes nothing) if too few bytes remain.
  bool U32(uint32_t* out) {
    if (!Has(4)) return false;
    *out = LoadBigEndian32(data_.data() + pos_);
    pos_ += 4;
    return true;
  }
  // A PMID or an InDom is one 32-bit word on the wire and on disk.
  bool U32(PmID* out) { return Identifier(out); }
  bool U32(InDom* out) { return Identifier(out); }
  // An instance identifier is one signed 32-bit word.
  bool I32(Inst* out) {
    int32_t v;
    if (!I32(&v)) return false;
    *out = Inst{v};
    return true;
  }
  bool I32(int32_t* out) {
    uint32_t v;
    if (!U32(&v)) return false;
    *out = static_cast<int32_t>(v);
    return true;
  }
  bool U64(uint64_t* out) {
    if (!Has(8)) return false;
    *out = LoadBigEndian64(data_.data() + pos_);
    pos_ += 8;
    return true;
  }
  bool I64(int64_t* out) {
    uint64_t v;
    if (!U64(&v)) return false;
    *out = static_cast<int64_t>(v);
    return true;
  }
  bool F32(float* out) {
    uint32_t v;
    if (!U32(&v)) return false;
    *out = std::bit_cast<float>(v);
    return true;
  }
  bool F64(double* out) {
    uint64_t v;
    if (!U64(&v)) return false;
    *out = std::bit_cast<double>(v);
    return true;
  }
  // Reads the 64-bit seconds of a v3 archive timestamp: two big-endian
  // 32-bit words, least significant first (libpcp swaps the two halves of
  // a little-endian int64 one word at a time).
  bool Seconds64(int64_t* out) {
    if (!Has(8)) return false;
    const uint64_t lo = LoadBigEndian32(data_.data() + pos_);
    const uint64_t hi = LoadBigEndian32(data_.data() + pos_ + 4);
    *out = static_cast<int64_t>((hi << 32) | lo);
    pos_ += 8;
    return true;
  }
  // Sets *out to the next n bytes (a view into the underlying span).
  bool Bytes(size_t n, std::span<const uint8_t>* out) {
    if (!Has(n)) return false;
    *out = data_.subspan(pos_, n);
    pos_ += n;
    return true;
  }
  // Moves forward n bytes.
  bool Skip(size_t n) {
    if (!Has(n)) return false;
    pos_ += n;
    return true;
  }
  // Moves to absolute offset pos (which may equal the size: nothing left).
  bool Seek(size_t pos) {
    if (pos > data_.size()) return false;
    pos_ = pos;
    return true;
  }

 private:
  template <typename Id>
  bool Identifier(Id* out) {
    uint32_t v;
    if (!U32(&v)) return false;
    *out = Id{v};
    return true;
  }
  std::span<const uint8_t> data_;
  size_t pos_ = 0;
};

}  // namespace pmapi

#endif  // PMAPI_SRC_BYTE_READER_H_
