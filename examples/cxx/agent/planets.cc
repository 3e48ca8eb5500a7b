// planets: a small performance metrics domain agent (PMDA) written with the
// C++ agent interface (pmapi/pmda.h), built as a shared object,
// pmda_planets.so, that a local context loads in-process and initialises
// by calling planets_init. The local configuration (pmcd.conf's form,
// named by $PCP_PMCDCONF_PATH) lists it as
//     planets  254  dso  planets_init  /path/to/pmda_planets.so  pmns=/path/to/root_planets
// or it is added on the command line of a local-context program:
//     pminfo -L -K add,254,/path/to/pmda_planets.so,planets_init planets
//
// Its metrics (names in root_planets, help text in help, read from the
// shared object's directory):
//   planets.count     U32     the number of planets in the table below
//   planets.fetches   U64     counter: fetch requests this agent answered
//   planets.moons     U32     one value per planet (instance domain 0)
//   planets.radius    DOUBLE  one value per planet, in kilometres
// Each planet instance carries a label, {"kind":"rocky"} or {"kind":"giant"}.
//
// The library answers descriptor, instance, text and label requests from
// the tables given to Pmda::Init; the agent supplies the values (the fetch
// callback) and counts fetches (its own fetch handler, which calls the
// default one). Each context that loads the agent calls planets_init with
// a Pmda of its own, so each has its own count.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "pmapi/errors.h"
#include "pmapi/pmda.h"

// The marker that tells the loader planets_init takes a pmapi::Pmda*.
PMAPI_PMDA_EXPORT_ABI

namespace {

struct Planet {
  const char* name;
  uint32_t moons;
  double radius_km;
  bool giant;
};
constexpr Planet kPlanets[] = {
    {"mercury", 0, 2439.7, false}, {"venus", 0, 6051.8, false},  {"earth", 1, 6371.0, false},
    {"mars", 2, 3389.5, false},    {"jupiter", 95, 69911, true}, {"saturn", 146, 58232, true},
    {"uranus", 28, 25362, true},   {"neptune", 16, 24622, true}};
constexpr uint32_t kNumPlanets = sizeof(kPlanets) / sizeof(kPlanets[0]);
constexpr pmapi::InDom kPlanetIndom = pmapi::PmdaInDom(0);  // Init adds the domain

// What one loaded copy of the agent keeps between requests.
struct State {
  uint64_t fetches = 0;
};

// The planet of instance `inst` (its index in kPlanets), or null for an
// instance not in the table.
const Planet* PlanetOf(pmapi::Inst inst) {
  const int32_t i = pmapi::ToPcp(inst);
  return i >= 0 && static_cast<uint32_t>(i) < kNumPlanets ? &kPlanets[i] : nullptr;
}

// One value: metric m, instance inst (kInNull for a singular metric).
// Returns > 0 for a value, or a PCP error code.
int Value(const State& st, const pmapi::PmdaMetric& m, pmapi::Inst inst, pmapi::AtomValue* atom) {
  const unsigned cluster = pmapi::PmIDCluster(m.desc.pmid), item = pmapi::PmIDItem(m.desc.pmid);
  if (cluster == 0) {  // singular metrics
    if (item == 0) {
      atom->ul = kNumPlanets;
    } else if (item == 1) {
      atom->ull = st.fetches;
    } else {
      return pmapi::kErrPmid;
    }
  } else if (cluster == 1) {  // per planet
    const Planet* planet = PlanetOf(inst);
    if (planet == nullptr) return pmapi::kErrInst;
    if (item == 0) {
      atom->ul = planet->moons;
    } else if (item == 1) {
      atom->d = planet->radius_km;
    } else {
      return pmapi::kErrPmid;
    }
  } else {
    return pmapi::kErrPmid;
  }
  return pmapi::kPmdaFetchStatic;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void planets_init(pmapi::Pmda* dp) {
  // Interface 7 (labels); the help text beside the shared object.
  dp->Dso(pmapi::kPmdaInterface7, "planets DSO", dp->home() + "/help");
  if (dp->status() != 0) return;

  auto state = std::make_shared<State>();
  // A fetch request: counted, then answered by the default handler, which
  // calls the fetch callback for each metric and instance asked for.
  dp->dispatch().fetch = [state](std::span<const pmapi::PmID> ids, pmapi::Result* result,
                                 pmapi::Pmda& pmda) {
    ++state->fetches;
    return pmda.DefaultFetch(ids, result);
  };
  dp->SetFetchCallback(
      [state](const pmapi::PmdaMetric& m, pmapi::Inst inst, pmapi::AtomValue* atom) {
        return Value(*state, m, inst, atom);
      });
  // The label of each planet instance; returns the number of labels.
  dp->SetLabelCallback([](pmapi::InDom, pmapi::Inst inst, pmapi::LabelSet* labels) {
    const Planet* planet = PlanetOf(inst);
    if (planet == nullptr) return 0;
    absl::Status s = pmapi::PmdaAddLabels(labels, planet->giant ? R"({"kind":"giant"})"
                                                                : R"({"kind":"rocky"})");
    return s.ok() ? 1 : pmapi::PcpCode(s);
  });

  pmapi::PmdaIndom planets{kPlanetIndom, {}};
  for (uint32_t i = 0; i < kNumPlanets; ++i) {
    planets.set.push_back({static_cast<pmapi::Inst>(i), kPlanets[i].name});
  }
  const pmapi::Units none{};
  const pmapi::Units count{0, 0, 1, 0, 0, pmapi::kCountOne};
  dp->Init({planets},
           {{nullptr, {pmapi::PmdaPmid(0, 0), pmapi::kTypeU32, pmapi::kInDomNull, pmapi::kSemDiscrete, count}},
            {nullptr, {pmapi::PmdaPmid(0, 1), pmapi::kTypeU64, pmapi::kInDomNull, pmapi::kSemCounter, count}},
            {nullptr, {pmapi::PmdaPmid(1, 0), pmapi::kTypeU32, kPlanetIndom, pmapi::kSemDiscrete, count}},
            {nullptr, {pmapi::PmdaPmid(1, 1), pmapi::kTypeDouble, kPlanetIndom, pmapi::kSemDiscrete, none}}});
}
