// A main for fuzz targets built without libFuzzer: runs the target once on
// every file under the directories (or files) named on the command line, so
// the saved corpus and every past crash replay as an ordinary test.
//
//   replay_pdu tests/fuzz/corpus/pdu tests/fuzz/regressions/pdu
//
// Hidden files (".gitkeep") are skipped. Exits 1 if an argument does not
// exist or nothing at all was run; a crash or sanitizer report in the target
// ends the process as it would under the fuzzer.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_support.h"

namespace {

namespace fs = std::filesystem;

// Inputs slower than this are reported (the fuzzer's own default is 1200 s;
// a decoder should never need a second on a small input).
constexpr double kSlowSeconds = 1.0;

std::vector<uint8_t> ReadBytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

// Adds the files under `arg` (or `arg` itself) to *out, sorted for a
// repeatable order. Returns false if `arg` does not exist.
bool Collect(const fs::path& arg, std::vector<fs::path>* out) {
  std::error_code ec;
  if (fs::is_regular_file(arg, ec)) {
    out->push_back(arg);
    return true;
  }
  if (!fs::is_directory(arg, ec)) return false;
  std::vector<fs::path> found;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(arg, ec)) {
    if (!e.is_regular_file() || e.path().filename().string().starts_with(".")) continue;
    found.push_back(e.path());
  }
  std::sort(found.begin(), found.end());
  out->insert(out->end(), found.begin(), found.end());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    if (!Collect(argv[i], &inputs)) {
      std::fprintf(stderr, "replay: %s: no such file or directory\n", argv[i]);
      return 1;
    }
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "replay: no inputs\n");
    return 1;
  }
  for (const fs::path& p : inputs) {
    std::vector<uint8_t> bytes = ReadBytes(p);
    auto start = std::chrono::steady_clock::now();
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    if (took.count() > kSlowSeconds) {
      std::fprintf(stderr, "replay: slow input (%.2f s): %s\n", took.count(), p.c_str());
    }
  }
  std::printf("replay: %zu inputs ran cleanly\n", inputs.size());
  return 0;
}
