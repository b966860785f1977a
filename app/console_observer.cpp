// SPDX-License-Identifier: MIT
#include "console_observer.h"

#include "model/format.h"

namespace perflab {

void ConsoleObserver::on_start(const RunSpec& spec) {
    line_.emplace(spec);
    std::fprintf(out_, "run \"%s\" (%s), %zu phase(s)", spec.name.c_str(), to_string(spec.kind),
                 spec.phases.size());
    if (spec.seed) std::fprintf(out_, ", seed %llu", static_cast<unsigned long long>(*spec.seed));
    std::fprintf(out_, "\n");
    std::fflush(out_);
}

void ConsoleObserver::on_sample(const IntervalSample& sample) {
    std::fprintf(out_, "%s\n", line_->next(sample).c_str());
    if (generator_ && generator_->raised())
        std::fprintf(out_, "%s load generator limit: %s\n", format_clock(sample.t_ms).c_str(),
                     generator_->reason().c_str());
    else if (generator_ && generator_->cleared())
        std::fprintf(out_, "%s load generator keeps up again\n", format_clock(sample.t_ms).c_str());
    std::fflush(out_);
}

void ConsoleObserver::on_event(const RunEvent& event) {
    std::fprintf(out_, "%s %s\n", format_clock(event.t_ms).c_str(), event.text.c_str());
    std::fflush(out_);
}

}  // namespace perflab
