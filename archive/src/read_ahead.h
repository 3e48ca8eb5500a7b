// read_ahead.h: reading the next window of a file on a worker thread while
// the caller decodes the one it has, for archive scans that read a volume
// from start to end (the copy out of the page cache then overlaps the
// decoding). Used by archive_file.cc's window reader.
//
// Example:
//   pmapi::ReadAhead ahead;
//   ahead.Start(fd, 1 << 20, 512 << 10, 4096, std::move(spare));  // [1 MiB, 1.5 MiB)
//   ...                                          // decode the current window
//   std::vector<uint8_t> bytes;
//   absl::Status s;
//   if (ahead.Take(1 << 20, &bytes, &s)) { ... }  // bytes[4096..] holds that range
#ifndef PMAPI_READ_AHEAD_H_
#define PMAPI_READ_AHEAD_H_

#include <sys/types.h>

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/status/status.h"

namespace pmapi {

// Reads exactly `n` bytes at `offset` of `fd` into `out`. A file shorter
// than that is PM_ERR_LOGREC; other failures carry -errno.
absl::Status ReadFully(int fd, uint64_t offset, uint8_t* out, size_t n);

class ReadAhead {
 public:
  ReadAhead() = default;
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;
  // Waits for the worker's read, then stops it.
  ~ReadAhead() { Stop(); }

  // Starts reading [offset, offset + n) of `fd` on the worker (started on
  // first use) into `buffer` (its allocation reused), after `head` bytes
  // left free for the caller. A read already under way is waited for
  // first. In a child of fork() nothing is started.
  void Start(int fd, uint64_t offset, size_t n, size_t head, std::vector<uint8_t> buffer);
  // When the last read started was at `offset`, waits for it, moves its
  // buffer (head bytes, then the data) into *bytes and its outcome into
  // *status, and returns true; otherwise false, and the read is dropped.
  bool Take(uint64_t offset, std::vector<uint8_t>* bytes, absl::Status* status);
  // Waits for a read under way (before its descriptor is closed).
  void Wait();
  // Waits for a read under way and ends the worker, dropping any bytes
  // not taken; the next Start makes a new one.
  void Stop();

 private:
  void Run();
  // False in a child of fork(): the worker is the parent's, and the lock
  // may be held by it; the child reads for itself.
  bool Usable() const;

  std::mutex mu_;
  std::condition_variable cv_;
  // Deliberately never destroyed in a child of fork() (see Usable).
  std::thread* worker_ = nullptr;
  pid_t owner_ = 0;
  bool queued_ = false;   // a read waits for the worker
  bool running_ = false;  // the worker is reading
  bool started_ = false;  // a read was started and not yet taken
  bool stop_ = false;
  int fd_ = -1;
  uint64_t offset_ = 0;
  size_t n_ = 0;
  size_t head_ = 0;
  std::vector<uint8_t> bytes_;
  absl::Status status_;
};

}  // namespace pmapi

#endif  // PMAPI_READ_AHEAD_H_
