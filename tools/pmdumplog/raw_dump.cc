// pmdumplog -v; see raw_dump.h.
#include "raw_dump.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "output.h"

namespace pmdumplog {
namespace {

// Reads a big-endian 32-bit word; returns the number of bytes read.
size_t ReadWord(FILE* f, int32_t* out) {
  uint8_t b[4];
  size_t n = fread(b, 1, 4, f);
  if (n == 4) {
    *out = static_cast<int32_t>((uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) |
                                (uint32_t{b[2]} << 8) | b[3]);
  }
  return n;
}

}  // namespace

int RawDump(const std::string& path) {
  FILE* f = fopen(path.c_str(), "r");
  if (f == nullptr) {
    fprintf(stderr, "pmdumplog: Cannot open \"%s\": %s\n", path.c_str(), strerror(errno));
    return 1;
  }
  Output out;
  out.Str("Raw dump of physical archive file \"" + path + "\" ...\n");
  int64_t offset = 0;
  int32_t len;
  char hex[4];
  while (ReadWord(f, &len) == 4) {
    char head[80];
    snprintf(head, sizeof(head), "Dump ... record len: %d @ offset: %lld", len,
             static_cast<long long>(offset));
    out.Str(head);
    const int64_t body = int64_t{len} - 8;
    for (int64_t i = 0; i < body; ++i) {
      int c = fgetc(f);
      if (c == EOF) {
        out.Str("Unexpected EOF\n");
        break;
      }
      if (i % 32 == 0) out.Char('\n');
      if (i % 4 == 0) out.Char(' ');
      snprintf(hex, sizeof(hex), "%02x", c & 0xff);
      out.Str(hex);
    }
    out.Char('\n');
    int32_t check;
    size_t n = ReadWord(f, &check);
    if (n != 4) {
      if (n == 0) out.Str("Unexpected EOF\n");
      break;
    }
    if (check != len) {
      snprintf(head, sizeof(head), "Trailer botch: %d != %d\n", check, len);
      out.Str(head);
      break;
    }
    offset = ftell(f);
  }
  fclose(f);
  out.Flush();
  return 0;
}

}  // namespace pmdumplog
