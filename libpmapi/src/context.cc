#include "pmapi/context.h"

#include <utility>

#include "pmapi/errors.h"
#include "pmapi/profile.h"
#include "source.h"

namespace pmapi {

Context::Context(std::unique_ptr<Source> source)
    : source_(std::move(source)), profile_(std::make_unique<Profile>()) {}
Context::Context(Context&&) noexcept = default;
Context& Context::operator=(Context&&) noexcept = default;
Context::~Context() = default;

int Context::kind() const { return source_->kind(); }
std::string Context::HostName() { return source_->HostName(); }

absl::StatusOr<PmID> Context::LookupName(std::string_view name) {
  return source_->LookupName(name);
}

absl::StatusOr<std::vector<std::string>> Context::NameAll(PmID id) {
  return source_->NameAll(id);
}

absl::StatusOr<std::vector<PmnsChild>> Context::Children(std::string_view name) {
  return source_->Children(name);
}

absl::Status Context::Traverse(std::string_view name,
                               const std::function<void(const std::string&)>& visit) {
  return source_->Traverse(name, visit);
}

absl::StatusOr<Desc> Context::LookupDesc(PmID id) { return source_->LookupDesc(id); }

absl::StatusOr<std::vector<Instance>> Context::GetInDom(InDom indom) {
  if (indom == kInDomNull) return PcpError(kErrIndom);
  return source_->GetInDom(indom);
}

absl::StatusOr<std::string> Context::NameInDom(InDom indom, int32_t inst) {
  if (indom == kInDomNull) return PcpError(kErrIndom);
  return source_->NameInDom(indom, inst);
}

absl::StatusOr<int32_t> Context::LookupInDom(InDom indom, std::string_view name) {
  if (indom == kInDomNull) return PcpError(kErrIndom);
  return source_->LookupInDom(indom, name);
}

absl::StatusOr<std::string> Context::LookupText(PmID id, int kind) {
  return source_->LookupText(id, (kind & (kTextOneline | kTextHelp)) | kTextPmid);
}

absl::StatusOr<std::string> Context::LookupInDomText(InDom indom, int kind) {
  if (indom == kInDomNull) return PcpError(kErrIndom);
  return source_->LookupText(indom, (kind & (kTextOneline | kTextHelp)) | kTextInDom);
}

absl::StatusOr<std::vector<LabelSet>> Context::LookupLabels(int level, uint32_t ident) {
  return source_->LookupLabels(level, ident);
}

absl::Status Context::AddProfile(InDom indom, std::span<const int32_t> insts) {
  if (indom == kInDomNull && !insts.empty()) return PcpError(kErrProfilespec);
  profile_->Add(indom, insts);
  return absl::OkStatus();
}

absl::Status Context::DelProfile(InDom indom, std::span<const int32_t> insts) {
  if (indom == kInDomNull && !insts.empty()) return PcpError(kErrProfilespec);
  profile_->Delete(indom, insts);
  return absl::OkStatus();
}

bool Context::ProfileAdmits(InDom indom, int32_t inst) const {
  return profile_->Admits(indom, inst);
}

absl::Status Context::SetMode(int mode, absl::Time when, absl::Duration delta) {
  return source_->SetMode(mode, when, delta);
}

absl::StatusOr<Result> Context::Fetch(std::span<const PmID> ids, int* state_change) {
  if (state_change) *state_change = 0;
  if (ids.empty()) return PcpError(kErrToosmall);
  return source_->Fetch(ids, *profile_, state_change);
}

absl::StatusOr<Result> Context::FetchArchive() { return source_->FetchArchive(); }

absl::Status Context::Store(const Result& values) { return source_->Store(values); }

absl::StatusOr<ArchiveLabel> Context::GetArchiveLabel() { return source_->GetArchiveLabel(); }

absl::StatusOr<absl::Time> Context::GetArchiveEnd() { return source_->GetArchiveEnd(); }

}  // namespace pmapi
