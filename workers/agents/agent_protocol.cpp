// SPDX-License-Identifier: MIT
#include "agent_protocol.h"

#include <charconv>
#include <stdexcept>
#include <utility>

#include "model/base64.h"
#include "model/node_ticks.h"

namespace perflab {

namespace {

std::string histogram_text(const Histogram& h) {
    return base64_encode(h.encode());
}

// A whole number of type T, exactly. Not json::get<T>(), which converts whatever number it
// finds: a double out of T's range is undefined behaviour, -1 a huge count.
template <class T>
T whole(const nlohmann::json& j) {
    const bool fits = j.is_number_unsigned()  ? std::in_range<T>(j.get<uint64_t>())
                      : j.is_number_integer() ? std::in_range<T>(j.get<int64_t>())
                                              : false;
    if (!fits)
        throw std::runtime_error("a malformed tick: " + j.dump() +
                                 " is out of range or not a whole number");
    return j.get<T>();
}

Histogram histogram_from(const nlohmann::json& text) {
    const auto bytes = base64_decode(text.get<std::string>());
    auto h = bytes ? Histogram::decode(*bytes) : std::nullopt;
    if (!h) throw std::runtime_error("a tick holds a malformed histogram");
    return *h;
}

// A status_codes key; not std::stoi, whose std::invalid_argument is no malformed tick's.
int status_code(const std::string& text) {
    int code = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), code);
    if (ec != std::errc() || end != text.data() + text.size())
        throw std::runtime_error("a malformed tick: status code \"" + text + "\"");
    return code;
}

}  // namespace

std::string agent_version() {
    return PERFLAB_VERSION;
}

nlohmann::json sample_json(const IntervalSample& s) {
    nlohmann::json ops = nlohmann::json::object();
    for (const auto& [name, op] : s.ops) {
        ops[name] = {{"count", op.count},
                     {"errors", op.errors},
                     {"latency", histogram_text(op.latency)},
                     {"service", histogram_text(op.service)}};
        // Added in the records' same version: an older controller ignores them.
        if (op.check_failures) {
            ops[name]["check_failures"] = op.check_failures;
            ops[name]["checks_failed"] = op.checks_failed;
        }
    }
    nlohmann::json errors = nlohmann::json::object();
    for (const auto& [kind, n] : s.errors)
        errors[kind] = n;
    nlohmann::json codes = nlohmann::json::object();
    for (const auto& [code, n] : s.status_codes)
        codes[std::to_string(code)] = n;
    nlohmann::json j = {{"t_ms", s.t_ms},
                        {"interval_ms", s.interval_ms},
                        {"phase", s.phase},
                        {"planned_rate", s.planned_rate},
                        {"connections", s.connections},
                        {"ops", ops},
                        {"hits", s.hits},
                        {"misses", s.misses},
                        {"bytes_in", s.bytes_in},
                        {"bytes_out", s.bytes_out},
                        {"sent", s.sent},
                        {"late", s.late},
                        {"dropped", s.dropped},
                        {"first_send_us", s.first_send_us},
                        {"last_send_us", s.last_send_us},
                        {"last_reply_us", s.last_reply_us},
                        {"errors", errors},
                        {"status_codes", codes}};
    // Redis Cluster's redirections; an agent of a version before them sends none.
    if (s.moved + s.asked) j["redirections"] = {{"moved", s.moved}, {"ask", s.asked}};
    if (!s.nodes.empty()) j["nodes"] = node_ticks_json(s.nodes);
    return j;
}

IntervalSample sample_from_json(const nlohmann::json& j) {
    try {
        IntervalSample s;
        s.t_ms = whole<int64_t>(j.at("t_ms"));
        s.interval_ms = whole<int64_t>(j.at("interval_ms"));
        s.phase = whole<int>(j.at("phase"));
        s.planned_rate = j.at("planned_rate").get<double>();
        s.connections = whole<int>(j.at("connections"));
        for (const auto& [name, op] : j.at("ops").items()) {
            OpSample& o = s.ops[name];
            o.count = whole<uint64_t>(op.at("count"));
            o.errors = whole<uint64_t>(op.at("errors"));
            o.latency = histogram_from(op.at("latency"));
            o.service = histogram_from(op.at("service"));
            if (const auto c = op.find("check_failures"); c != op.end())
                o.check_failures = whole<uint64_t>(*c);
            if (const auto c = op.find("checks_failed"); c != op.end())
                for (const auto& [check, n] : c->items())
                    o.checks_failed[check] = whole<uint64_t>(n);
        }
        s.hits = whole<uint64_t>(j.at("hits"));
        s.misses = whole<uint64_t>(j.at("misses"));
        s.bytes_in = whole<uint64_t>(j.at("bytes_in"));
        s.bytes_out = whole<uint64_t>(j.at("bytes_out"));
        s.sent = whole<uint64_t>(j.at("sent"));
        s.late = whole<uint64_t>(j.at("late"));
        s.dropped = whole<uint64_t>(j.at("dropped"));
        if (const auto r = j.find("redirections"); r != j.end()) {
            s.moved = whole<uint64_t>(r->at("moved"));
            s.asked = whole<uint64_t>(r->at("ask"));
        }
        if (const auto n = j.find("nodes"); n != j.end()) {
            auto nodes = node_ticks_from_json(*n);
            if (!nodes) throw std::runtime_error("a malformed tick: its nodes are malformed");
            s.nodes = std::move(*nodes);
        }
        s.first_send_us = whole<int64_t>(j.at("first_send_us"));
        s.last_send_us = whole<int64_t>(j.at("last_send_us"));
        s.last_reply_us = whole<int64_t>(j.at("last_reply_us"));
        for (const auto& [kind, n] : j.at("errors").items())
            s.errors[kind] = whole<uint64_t>(n);
        for (const auto& [code, n] : j.at("status_codes").items())
            s.status_codes[status_code(code)] = whole<uint64_t>(n);
        return s;
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(std::string("a malformed tick: ") + e.what());
    }
}

std::string record_line(nlohmann::json record) {
    record["v"] = kAgentProtocol;
    return record.dump() + "\n";
}

}  // namespace perflab
