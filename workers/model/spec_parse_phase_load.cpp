// SPDX-License-Identifier: MIT
// A cache run's phases with a workload of their own: "hot key space, then cold" as one run.
#include <memory>

#include "json_reader.h"
#include "spec_parse_sections.h"

namespace perflab {

namespace {

constexpr const char* kLoadKeys[] = {"workload", "get_ratio",  "set_ratio",
                                     "keys",     "value_size", "commands"};

bool has_load_key(const nlohmann::json& phase) {
    if (!phase.is_object()) return false;
    for (const char* key : kLoadKeys)
        if (phase.contains(key)) return true;
    return false;
}

// What a phase's own workload cannot be combined with, in the cache section.
void check_combinations(const CacheSpec& c, const CacheLoad& load, const std::string& path,
                        JsonReader& r) {
    // The commands' ops are the run's series from its first tick to its last: a phase may
    // change their keys and values, not them.
    if (r.has("commands"))
        r.error(r.path("commands"),
                "a phase cannot change the commands: give them in cache.commands, for the run");
    if (!c.commands.empty())
        for (const char* key : {"workload", "get_ratio", "set_ratio"})
            if (r.has(key))
                r.error(r.path(key), "the run sends cache.commands, which replace the workload");
    if (c.replay)
        r.error(path,
                "a replay's operations, keys and sizes come from its file: a phase of it "
                "cannot change them");
    if (load.workload == CacheWorkload::ratio && load.get_ratio + load.set_ratio == 0)
        r.error(r.path("set_ratio"), "get_ratio and set_ratio cannot both be 0");
    if (c.multiget > 1 &&
        (load.workload == CacheWorkload::cache_aside || load.workload == CacheWorkload::set_only))
        r.error(r.path("workload"),
                "batches of gets (cache.multiget) need \"get-only\" or \"ratio\" (cache-aside "
                "sets each missed key, which a batch does not tell)");
}

// The section's workload with what the phase changes. A phase that gives the key count or
// distribution but no mean or stddev gets the new space's own (its middle, a sixth of it),
// not the section's, which were chosen for another space.
CacheLoad read_load(const nlohmann::json& json, const CacheSpec& c, const std::string& path,
                    std::vector<SpecError>& errors) {
    JsonReader r(json, path, errors);
    CacheLoad load = cache_load(c);
    if (auto v = r.choice("workload", {"cache-aside", "ratio", "get-only", "set-only"}))
        load.workload = CacheWorkload(*v);
    if (auto v = r.integer("get_ratio", 0, 1'000'000)) load.get_ratio = uint32_t(*v);
    if (auto v = r.integer("set_ratio", 0, 1'000'000)) load.set_ratio = uint32_t(*v);
    if (const auto* k = r.child("keys")) {
        if (k->is_object() && (k->contains("count") || k->contains("distribution"))) {
            if (!k->contains("mean")) load.keys.mean.reset();
            if (!k->contains("stddev")) load.keys.stddev.reset();
        }
        spec_detail::parse_keys(*k, r.path("keys"), load.keys, errors);
    }
    if (const auto* v = r.child("value_size"))
        spec_detail::parse_value_size(*v, r.path("value_size"), load.value_size, errors);
    check_combinations(c, load, path, r);
    return load;
}

}  // namespace

void spec_detail::parse_phase_loads(const nlohmann::json& phases, RunSpec& s,
                                    std::vector<SpecError>& errors) {
    if (!phases.is_array()) return;
    for (size_t i = 0; i < phases.size() && i < s.phases.size(); ++i) {
        if (!has_load_key(phases[i])) continue;
        const std::string path = index_path("phases", i);
        if (!s.cache) {
            for (const char* key : kLoadKeys)
                if (phases[i].contains(key))
                    errors.push_back({path + "." + key, "is for a cache run's phase"});
            continue;
        }
        CacheLoad load = read_load(phases[i], *s.cache, path, errors);
        // The same as the section's: no workload of its own, so the phase reads as the others.
        if (load != cache_load(*s.cache))
            s.phases[i].cache = std::make_shared<const CacheLoad>(std::move(load));
    }
}

}  // namespace perflab
