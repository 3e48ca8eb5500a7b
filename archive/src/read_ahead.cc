// Reading ahead on a worker thread; see read_ahead.h.
#include "read_ahead.h"

#include <unistd.h>

#include <cerrno>
#include <exception>

#include "pmapi/errors.h"

namespace pmapi {

absl::Status ReadFully(int fd, uint64_t offset, uint8_t* out, size_t n) {
  while (n > 0) {
    const ssize_t got = pread(fd, out, n, static_cast<off_t>(offset));
    if (got < 0) {
      if (errno == EINTR) continue;
      return PcpError(-errno);
    }
    if (got == 0) return PcpError(kErrLogrec);
    out += got;
    offset += static_cast<uint64_t>(got);
    n -= static_cast<size_t>(got);
  }
  return absl::OkStatus();
}

bool ReadAhead::Usable() const { return owner_ == 0 || owner_ == getpid(); }

void ReadAhead::Stop() {
  if (worker_ == nullptr || !Usable()) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  worker_->join();
  delete worker_;
  worker_ = nullptr;
  stop_ = queued_ = running_ = started_ = false;
  std::vector<uint8_t>().swap(bytes_);
}

void ReadAhead::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    cv_.wait(lock, [this] { return queued_ || stop_; });
    if (stop_ && !queued_) return;
    queued_ = false;
    running_ = true;
    const int fd = fd_;
    const uint64_t offset = offset_;
    const size_t n = n_;
    const size_t head = head_;
    std::vector<uint8_t> bytes = std::move(bytes_);
    lock.unlock();
    if (bytes.size() != head + n) bytes.resize(head + n);
    absl::Status status = ReadFully(fd, offset, bytes.data() + head, n);
    lock.lock();
    bytes_ = std::move(bytes);
    status_ = std::move(status);
    running_ = false;
    cv_.notify_all();
  }
}

void ReadAhead::Start(int fd, uint64_t offset, size_t n, size_t head, std::vector<uint8_t> buffer) {
  if (!Usable()) return;
  if (worker_ == nullptr) {
    // Without a thread (the process is at its limit) reads stay in line.
    try {
      worker_ = new std::thread([this] { Run(); });
    } catch (const std::exception&) {
      return;
    }
    owner_ = getpid();
  }
  {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return !queued_ && !running_; });
    fd_ = fd;
    offset_ = offset;
    n_ = n;
    head_ = head;
    bytes_ = std::move(buffer);
    queued_ = true;
    started_ = true;
  }
  cv_.notify_all();
}

bool ReadAhead::Take(uint64_t offset, std::vector<uint8_t>* bytes, absl::Status* status) {
  if (worker_ == nullptr || !Usable()) return false;
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return !queued_ && !running_; });
  if (!started_ || offset_ != offset) {
    started_ = false;
    return false;
  }
  started_ = false;
  *bytes = std::move(bytes_);
  bytes_.clear();
  *status = std::move(status_);
  status_ = absl::OkStatus();
  return true;
}

void ReadAhead::Wait() {
  if (worker_ == nullptr || !Usable()) return;
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return !queued_ && !running_; });
}

}  // namespace pmapi
