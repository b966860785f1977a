// SPDX-License-Identifier: MIT
#include "agents_engine.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <thread>

#include "agent_secrets.h"
#include "agent_share.h"
#include "model/format.h"
#include "model/rate_search.h"

namespace perflab {

namespace {

constexpr int kClockRounds = 8;
// From the assignments to the common start: agents parse their share and open connections.
constexpr auto kLead = std::chrono::seconds(1);

std::string ms_text(int64_t ns) {
    return format_fixed(double(ns) / 1e6, 3) + " ms";
}

bool finished_phase(const AgentLink::State& s, int phase) {
    return s.ended || s.phase_ended >= phase || s.step_ended >= phase || s.last_phase > phase;
}

bool drained_phase(const AgentLink::State& s, int phase) {
    return s.ended || s.phase_ended >= phase;
}

}  // namespace

std::unique_ptr<LoadEngine> make_run_engine(const RunSpec& spec, std::shared_ptr<SshCancel> cancel,
                                            const AgentsEngine** agents) {
    *agents = nullptr;
    if (spec.agents.empty()) return make_engine(spec);
    auto remote = std::make_unique<AgentsEngine>(spec, std::move(cancel));
    *agents = remote.get();
    return remote;
}

namespace {

// Before any agent is reached: a variable not set is the spec's error, told as make_engine
// tells it, and no agent host's environment is asked.
RunSpec resolved_for_agents(const RunSpec& spec) {
    SpecResult resolved = spec_for_agents(spec);
    if (!resolved) {
        std::string text = resolved.error_text();
        text.pop_back();
        throw std::runtime_error(text);
    }
    return *resolved.spec;
}

}  // namespace

AgentsEngine::AgentsEngine(RunSpec spec, std::shared_ptr<SshCancel> cancel)
    : spec_(resolved_for_agents(spec)), cancel_(std::move(cancel)) {}

AgentsEngine::~AgentsEngine() = default;

void AgentsEngine::open_agents() {
    for (const auto& agent : spec_.agents) {
        if (agent.local) continue;
        links_.push_back(std::make_unique<AgentLink>(agent, cancel_));
        links_.back()->open();
        totals_.push_back({agent.host, {}, false});
    }
    loss_told_.assign(links_.size(), false);
    late_told_.assign(links_.size(), false);
    behind_.assign(links_.size(), false);
    books_.assign(links_.size(), {});
}

void AgentsEngine::start() {
    open_agents();
    // An agent whose clock is known no better than this could not place its ticks.
    const int64_t limit_ns = int64_t(spec_.tick_ms) * 1'000'000 / 20;
    std::vector<ClockOffset> clocks;
    for (auto& link : links_) {
        clocks.push_back(link->measure_clock(kClockRounds));
        const ClockOffset& c = clocks.back();
        if (c.uncertainty_ns > limit_ns)
            throw std::runtime_error("agent " + link->host() + ": its clock is known only to ±" +
                                     ms_text(c.uncertainty_ns) + ", over 5% of a tick (" +
                                     ms_text(limit_ns) + "): the link is too slow");
        events_.push_back({0, "agent",
                           "agent " + link->host() + ": clock offset " + ms_text(c.offset_ns) +
                               " ± " + ms_text(c.uncertainty_ns)});
    }
    // Every agent builds its engine, connects and prefills before the start is set: one that
    // cannot (a replay file missing there) stops the run before any load is sent, and a slow
    // prefill does not eat into the lead.
    const int n = int(spec_.agents.size());
    size_t remote = 0;
    for (int k = 0; k < n; ++k) {
        const RunSpec share = agent_share(spec_, k, n);
        if (spec_.agents[size_t(k)].local) {
            local_share_ = share;
            local_ = make_engine(share);
            totals_.push_back({"local", {}, false});
            continue;
        }
        links_[remote]->assign(share, k, n);
        share_of_.push_back(k);
        totals_[remote].clock_offset_ns = clocks[remote].offset_ns;
        totals_[remote].clock_uncertainty_ns = clocks[remote].uncertainty_ns;
        ++remote;
    }
    if (local_) local_->start();
    for (auto& link : links_)
        link->await_ready();
    start_ = Clock::now() + kLead;
    for (size_t i = 0; i < links_.size(); ++i)
        links_[i]->start(start_, clocks[i]);
    std::this_thread::sleep_until(start_);
}

std::vector<HardwareProfile> AgentsEngine::agent_profiles() const {
    std::vector<HardwareProfile> out;
    for (const auto& link : links_)
        if (!link->profile().hostname.empty()) out.push_back(link->profile());
    return out;
}

Clock::duration AgentsEngine::step_lead() const {
    // Up to one poll before the reader sends the order, and its way over the channel.
    return links_.empty() ? Clock::duration{} : std::chrono::milliseconds(2 * AgentLink::kPollMs);
}

void AgentsEngine::order(int phase, const Phase& plan, Clock::time_point start) {
    if (const auto it = ordered_.find(phase); it != ordered_.end() && it->second == start) return;
    ordered_[phase] = start;
    for (auto& link : links_)
        link->order_step(phase, plan.rate, plan.duration_s, start);
}

void AgentsEngine::begin_phase(const PhasePlan& plan) {
    phase_ = plan.index;
    plans_[plan.index] = {plan.phase, plan.start};
    if (spec_.search) {
        // The first step's rate is the spec's: the agents begin it on their own, as they do
        // the warm-up. The later ones wait for their order.
        if (plan.index > first_step_phase(*spec_.search)) order(plan.index, plan.phase, plan.start);
    } else {
        if (plan.index > 0) order(plan.index, plan.phase, plan.start);
        // A phase that ends on its time: the next one's start is known now, and ordered now,
        // so it reaches the agents before it is due. Its controller moves it only to wait for
        // the replies of a phase before, and then orders it again.
        const size_t next = size_t(plan.index) + 1;
        if (plan.phase.ops == 0 && plan.phase.duration_s > 0 && next < spec_.phases.size())
            order(int(next), spec_.phases[next],
                  plan.start + std::chrono::duration_cast<Clock::duration>(
                                   std::chrono::duration<double>(plan.phase.duration_s)));
    }
    if (!local_) return;
    PhasePlan mine = plan;
    if (local_share_.search) {
        mine.phase = search_step(*local_share_.search, plan.phase.rate);
        mine.phase.duration_s = plan.phase.duration_s;  // a warm-up's
    } else {
        mine.phase = local_share_.phases[size_t(plan.index)];
    }
    mine.connections = phase_connections(local_share_, mine.phase);
    mine.share = local_share_.share;
    mine.shares = local_share_.shares;
    local_->begin_phase(mine);
}

bool AgentsEngine::all_live(bool (*done)(const AgentLink::State&, int), int phase) const {
    for (const auto& link : links_) {
        const auto s = link->state();
        if (!s.lost && !done(s, phase)) return false;
    }
    return true;
}

bool AgentsEngine::phase_done() const {
    return all_live(finished_phase, phase_) && (!local_ || local_->phase_done());
}

bool AgentsEngine::drained(int phase) const {
    return all_live(drained_phase, phase) && (!local_ || local_->drained(phase));
}

// A tick waits for every live agent's tick of the same moment: the agents' ticks are stamped
// on their own clocks, started with ours. One that is not in after half a tick marks the
// agent behind in this tick; the tick still waits for it, up to kBehindTicks more, so its
// figures land in the tick of their time, not as a spike in the next.
int64_t AgentsEngine::await_ticks(int phase, Clock::time_point origin) {
    const auto now = Clock::now();
    const int64_t t_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(now - origin).count();
    const int64_t half = spec_.tick_ms / 2;
    // A sliver of a tick as the phase begins (its start came after a tick was due): an agent
    // sends no tick that holds nothing, and what it sent in it joins its next.
    if (const auto plan = plans_.find(phase);
        plan != plans_.end() && now < plan->second.second + kSliver)
        return t_ms + half;
    // An agent's tick of the same moment ends within its clock's uncertainty (under 5% of a
    // tick) and some scheduling of ours: its tick before ends a whole tick, or a phase's
    // sliver, earlier.
    const int64_t slack = std::max<int64_t>(5, spec_.tick_ms / 20);
    const auto grace = now + std::chrono::milliseconds(half);
    const auto until = grace + kBehindTicks * std::chrono::milliseconds(spec_.tick_ms);
    for (size_t i = 0; i < links_.size(); ++i) {
        behind_[i] = !links_[i]->wait_tick(phase, t_ms, slack, grace);
        if (!behind_[i]) continue;
        links_[i]->wait_tick(phase, t_ms, slack, until);
        if (late_told_[i]) continue;
        late_told_[i] = true;
        events_.push_back({t_ms, "agent",
                           "agent " + links_[i]->host() + " behind: its tick ending at " +
                               format_clock(t_ms) +
                               " came after half a tick's grace; each tick it is behind is "
                               "marked in its figures"});
    }
    return t_ms + half;
}

namespace {

// Ops due from a phase's start to t_s into it on the agent share `k` of `n` (ops k, k + n,
// ... of the phase's schedule); a ramp's rate grows linearly.
uint64_t share_due(const Phase& p, double t_s, int k, int n) {
    if (!p.open() || t_s <= 0) return 0;
    if (p.duration_s > 0) t_s = std::min(t_s, p.duration_s);
    const double to = p.rate_to.value_or(p.rate);
    const double slope = p.duration_s > 0 ? (to - p.rate) / p.duration_s : 0;
    auto due = uint64_t(std::ceil(p.rate * t_s + slope * t_s * t_s / 2));
    if (p.ops > 0) due = std::min(due, p.ops);
    return due > uint64_t(k) ? (due - uint64_t(k) + uint64_t(n) - 1) / uint64_t(n) : 0;
}

}  // namespace

// A lost agent's share of the phase's schedule that it never told of (unsent, sent and never
// told, or still due when it went) is dropped, so that throughput, error rate and a search step
// see the loss. Counted against what it told rather than from its last tick's time: an agent
// behind its schedule when it went had ops due before that tick that it never sent.
uint64_t AgentsEngine::lost_share(size_t i, int phase, int64_t upto_ms) {
    const auto plan = plans_.find(phase);
    if (plan == plans_.end()) return 0;
    const auto& [p, begun] = plan->second;
    const int64_t begun_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(begun - start_).count();
    auto& book = books_[i][phase];
    const uint64_t due =
        share_due(p, double(upto_ms - begun_ms) / 1000, share_of_[i], int(spec_.agents.size()));
    const uint64_t accounted = book.told + book.lost;
    if (due <= accounted) return 0;
    book.lost += due - accounted;
    return due - accounted;
}

void AgentsEngine::collect(IntervalSample& out, int phase, Clock::time_point origin) {
    const int64_t upto_ms = await_ticks(phase, origin);
    const int64_t now_ms = upto_ms - spec_.tick_ms / 2;
    int connections = 0;
    // Merging sets the connections to the part's: the agents' are summed here.
    std::vector<AgentTick> ticks;
    const auto add = [&](AgentTotals& totals, const IntervalSample& part, AgentTick tick) {
        totals.totals.merge(part);
        connections += part.connections;
        out.merge(part);
        tick.host = totals.host;
        tick.ops = part.total_ops();
        tick.errors = part.total_errors();
        tick.late = part.late;
        ticks.push_back(std::move(tick));
    };
    for (size_t i = 0; i < links_.size(); ++i) {
        IntervalSample part;
        links_[i]->take(part, phase, upto_ms);
        books_[i][phase].told += part.sent + part.dropped;
        const auto s = links_[i]->state();
        if (!s.lost && !s.ended) part.connections = s.connections;
        if (s.lost) part.dropped += lost_share(i, phase, now_ms);
        AgentTick tick;
        tick.cpu_pct = s.cpu_last;
        tick.behind = behind_[i];
        tick.lost = s.lost;
        add(totals_[i], part, std::move(tick));
    }
    if (local_) {
        IntervalSample part;
        if (!local_stopped_)
            local_->collect(part, phase, origin);
        else if (const auto it = local_rest_.find(phase); it != local_rest_.end())
            part = std::exchange(it->second, {});
        add(totals_.back(), part, {});
    }
    out.connections = connections;
    out.agents = std::move(ticks);
}

void AgentsEngine::stop() {
    if (local_) {
        local_->stop();
        for (int phase = 0; phase <= phase_; ++phase)
            local_->collect(local_rest_[phase], phase, start_);
        local_stopped_ = true;
    }
    // Before the plan's end the run was stopped: the agents stop too. At its end they are
    // ending on their own.
    const auto planned_end =
        start_ + std::chrono::duration_cast<Clock::duration>(
                     std::chrono::duration<double>(spec_.planned_duration_s()));
    // A search's agents wait for a next step until told the search is over.
    if (spec_.search || Clock::now() + std::chrono::milliseconds(spec_.tick_ms) < planned_end ||
        wants_stop())
        for (auto& link : links_)
            link->request_stop();
    const int timeout_ms = spec_.http ? spec_.http->timeout_ms : spec_.cache->timeout_ms;
    const auto until =
        Clock::now() + std::chrono::milliseconds(timeout_ms) + std::chrono::seconds(5);
    for (auto& link : links_)
        link->wait_end(until);
    for (size_t i = 0; i < links_.size(); ++i) {
        const auto state = links_[i]->state();
        totals_[i].lost = state.lost;
        totals_[i].cpu_max = state.cpu_max;
        totals_[i].ticks = state.ticks;
        totals_[i].tick_bytes = state.tick_bytes;
    }
    // Every agent's share as an event, so the store keeps them beside the merged figures.
    for (size_t i = 0; i < totals_.size(); ++i) {
        AgentTotals whole = totals_[i];
        if (i < links_.size())
            whole.totals.merge(links_[i]->untaken());
        else
            for (const auto& [phase, part] : local_rest_)
                whole.totals.merge(part);
        events_.push_back({0, "agent", agent_totals_text(whole)});
    }
}

void AgentsEngine::cancel() {
    for (auto& link : links_)
        link->request_stop();
    if (local_) local_->cancel();
}

std::string AgentsEngine::first_connection_error() const {
    if (local_)
        if (std::string error = local_->first_connection_error(); !error.empty()) return error;
    for (const auto& link : links_)
        if (std::string error = link->state().connection_error; !error.empty())
            return "agent " + link->host() + ": " + error;
    return {};
}

uint64_t AgentsEngine::prefill_sets() const {
    uint64_t sets = local_ ? local_->prefill_sets() : 0;
    for (const auto& link : links_)
        sets += link->state().prefill_sets;
    return sets;
}

std::vector<RunEvent> AgentsEngine::take_events() {
    for (const auto& link : links_)
        for (const auto& [phase, by_us] : link->take_lates())
            events_.push_back({0, "agent",
                               "agent " + link->host() + " late: it began phase " +
                                   std::to_string(phase + 1) + " " + ms_text(by_us * 1000) +
                                   " after its start; its first tick lacks what it could not "
                                   "send"});
    for (size_t i = 0; i < links_.size(); ++i) {
        const auto s = links_[i]->state();
        if (!s.lost || loss_told_[i]) continue;
        loss_told_[i] = true;
        events_.push_back({0, "agent",
                           "agent " + links_[i]->host() + " lost: " + s.why +
                               "; its share is missing from now on, counted as dropped"});
    }
    return std::exchange(events_, {});
}

bool AgentsEngine::wants_stop() const {
    if (spec_.on_agent_loss != AgentLoss::stop) return false;
    for (const auto& link : links_)
        if (link->state().lost) return true;
    return false;
}

}  // namespace perflab
