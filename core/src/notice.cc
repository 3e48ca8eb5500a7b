// The library's notices; see notice.h.
#include "notice.h"

#include <atomic>

namespace pmapi {
namespace {

std::atomic<NoticeHandler> handler{nullptr};

}  // namespace

void SetNoticeHandler(NoticeHandler h) { handler.store(h); }

void Notice(int priority, const std::string& text) {
  if (NoticeHandler h = handler.load(); h != nullptr) h(priority, text.c_str());
}

}  // namespace pmapi
