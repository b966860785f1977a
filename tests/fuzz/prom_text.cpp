// SPDX-License-Identifier: MIT
// An exporter's page as the prometheus probe reads it: parsed, then turned into series twice
// (a baseline, then rates and quantiles against it) with a selector taking every metric; and
// its first line read as a selector, as a spec's "metrics" are.
#include "model/prom_text.h"

#include <nlohmann/json.hpp>

#include "fuzz_target.h"
#include "model/prom_selector.h"
#include "prom_series.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text = perflab::fuzz::text_of(data, size);
    (void)perflab::parse_prom_selector(text.substr(0, text.find('\n')));
    const auto parsed = perflab::parse_prom_text(text);
    if (parsed.error) {
        // Stored as an event's text, which JSON must be able to write.
        (void)nlohmann::json(*parsed.error).dump();
        return 0;
    }
    auto every = perflab::parse_prom_selector(R"({__name__=~".+"})");
    perflab::PromSeries series({std::get<perflab::PromSelector>(std::move(every))}, 50);
    (void)series.values(parsed.scrape, 0);
    series.remember(parsed.scrape);
    (void)series.values(parsed.scrape, 1.0).dump();
    return 0;
}
