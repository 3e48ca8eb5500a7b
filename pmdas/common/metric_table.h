// metric_table.h: the descriptor rows of a built-in agent (name, cluster,
// item, type, instance domain serial, semantics, units), generated from
// PCP's own descriptors by pmdas/tools/gen_tables.py, and the PmdaMetric
// list made from them.
//
// Example:
//   std::vector<pmapi::PmdaMetric> m = pmapi::agent_tables::MetricsFromRows(
//       {pmapi::agent_tables::kKernelRows, pmapi::agent_tables::kKernelRowsCount});
//   // m[i].user points at its row
#ifndef PMAPI_PMDAS_COMMON_METRIC_TABLE_H_
#define PMAPI_PMDAS_COMMON_METRIC_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "absl/strings/string_view.h"

#include "pmapi/pmda.h"
#include "pmapi/types.h"

namespace pmapi::agent_tables {

struct MetricRow {
  const char* name;
  uint16_t cluster;
  uint16_t item;
  int8_t type;
  int16_t indom;  // serial, -1 for none
  int8_t sem;
  Units units;
};

extern const MetricRow kKernelRows[];
extern const size_t kKernelRowsCount;
extern const MetricRow kMemRows[];
extern const size_t kMemRowsCount;
extern const MetricRow kDiskRows[];
extern const size_t kDiskRowsCount;
extern const MetricRow kNetIpRows[];
extern const size_t kNetIpRowsCount;
extern const MetricRow kNetRows[];
extern const size_t kNetRowsCount;
extern const MetricRow kProcRows[];
extern const size_t kProcRowsCount;
extern const MetricRow kCgroupRows[];
extern const size_t kCgroupRowsCount;

// Appends one PmdaMetric per row, its `user` pointing at the row.
inline void AppendMetrics(std::span<const MetricRow> rows, std::vector<PmdaMetric>* out) {
  for (const MetricRow& r : rows) {
    const InDom indom = r.indom < 0 ? kInDomNull : static_cast<InDom>(r.indom);
    out->push_back(PmdaMetric{const_cast<MetricRow*>(&r),
                              Desc{PmdaPmid(r.cluster, r.item), r.type, indom, r.sem, r.units}});
  }
}

// The row behind a metric made by AppendMetrics.
inline const MetricRow& RowOf(const PmdaMetric& m) { return *static_cast<const MetricRow*>(m.user); }

// The last component of a row's name.
inline absl::string_view Leaf(const MetricRow& r) {
  absl::string_view n(r.name);
  return n.substr(n.rfind('.') + 1);
}

}  // namespace pmapi::agent_tables

#endif  // PMAPI_PMDAS_COMMON_METRIC_TABLE_H_
