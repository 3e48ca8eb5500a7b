// tools/pmval/value_text.h: how pmval lays out one number in a column.
//
// Example:
//   pmval::RealText(0.5, pmapi::kSemInstant, 13, -1);   // "       0.5000"
//   pmval::ColumnWidth(pmapi::kTypeU64);                 // 21
#ifndef PMAPI_TOOLS_PMVAL_VALUE_TEXT_H_
#define PMAPI_TOOLS_PMVAL_VALUE_TEXT_H_

#include <string>

namespace pmval {

// Returns pmval's text for a real value in `width` columns: "!" for a
// negative counter rate; with `fixed` >= 0, "%*.*f"; otherwise a form of
// about four significant digits whose decimal point stays in one column.
std::string RealText(double v, int sem, int width, int fixed);

// Returns pmval's default column width for a value type; 0 for events and
// -1 for a type pmval does not know.
int ColumnWidth(int type);

}  // namespace pmval

#endif  // PMAPI_TOOLS_PMVAL_VALUE_TEXT_H_
