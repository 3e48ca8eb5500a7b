// tools/pmval/event_text.h: pmval's report of event metric values: each
// instance's records with their flags and parameters, one per line.
//
// Example:
//   pmval::EventPrinter printer(&ctx, "sample.event.records", desc);
//   std::string text = printer.Value("fungus", valfmt, view);
#ifndef PMAPI_TOOLS_PMVAL_EVENT_TEXT_H_
#define PMAPI_TOOLS_PMVAL_EVENT_TEXT_H_

#include <map>
#include <optional>
#include <string>

#include "pmapi/context.h"
#include "pmapi/timezone.h"
#include "pmapi/types.h"

namespace pmval {

class EventPrinter {
 public:
  // Record stamps are shown in `zone`.
  // REQUIRES: ctx outlives the printer; desc is an event metric's.
  EventPrinter(pmapi::Context* ctx, std::string metric, const pmapi::Desc& desc,
               pmapi::TimeZone zone)
      : ctx_(ctx), metric_(std::move(metric)), desc_(desc), zone_(std::move(zone)) {}

  // Returns the text for one event array value: "metric[inst]: N event
  // records" and the records. `inst_name` is nullopt for a singular metric.
  std::string Value(const std::optional<std::string>& inst_name, int valfmt,
                    const pmapi::ValueView& v);

 private:
  struct Param {
    bool ok = false;
    std::string name;
    pmapi::Desc desc;
  };
  const Param& Lookup(pmapi::PmID pmid);
  std::string Records(int valfmt, const pmapi::ValueView& v);
  std::string Record(const pmapi::Result& r, size_t index, bool highres);
  std::string ParamValues(const Param& p, const pmapi::Result& r, const pmapi::ValueSet& vs);
  std::string InstanceLabel(pmapi::InDom indom, pmapi::Inst inst);

  pmapi::Context* ctx_;
  std::string metric_;
  pmapi::Desc desc_;
  pmapi::TimeZone zone_;
  std::map<pmapi::PmID, Param> params_;
};

}  // namespace pmval

#endif  // PMAPI_TOOLS_PMVAL_EVENT_TEXT_H_
