// SPDX-License-Identifier: MIT
#include <stdexcept>

#include "cache/async_engine.h"
#include "cache/libmemcached_engine.h"
#include "engine.h"
#include "http/http_engine.h"
#include "model/run_plan.h"
#include "model/secrets.h"

namespace perflab {

namespace {
// Senders of an open-model phase that names no concurrency, when no phase does.
constexpr int kDefaultOpenConnections = 16;
}  // namespace

int phase_connections(const RunSpec& spec, const Phase& phase) {
    if (phase.concurrency > 0) return phase.concurrency;
    const int widest = spec.max_concurrency();
    return widest > 0 ? widest : kDefaultOpenConnections;
}

std::unique_ptr<LoadEngine> make_engine(const RunSpec& stored) {
    // Every way of starting a run comes through here, so this is the one place where the
    // ${NAME} references become values, and only the engine ever holds them.
    SpecResult resolved = resolve_references(stored);
    if (!resolved) {
        std::string text = resolved.error_text();
        text.pop_back();
        throw std::runtime_error(text);
    }
    const RunSpec spec = run_plan(*resolved.spec);
    // A stored spec is parsed without its replay file (parse_stored_spec): it shows a run, it
    // does not start one.
    if (spec.cache && spec.cache->replay && !spec.cache->replay->ops)
        throw std::runtime_error("cache.replay.file: " + spec.cache->replay->file +
                                 " was not read");
    if (spec.kind == RunKind::cache) {
        if (effective_driver(*spec.cache) == CacheDriver::libmemcached)
            return std::make_unique<LibmemcachedEngine>(spec);
        return std::make_unique<AsyncEngine>(spec);
    }
    return std::make_unique<HttpEngine>(spec);
}

}  // namespace perflab
