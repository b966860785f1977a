// SPDX-License-Identifier: MIT
#include "agent_protocol.h"

#include <stdexcept>

#include "base64.h"

namespace perflab {

namespace {

std::string histogram_text(const Histogram& h) {
    return base64_encode(h.encode());
}

Histogram histogram_from(const nlohmann::json& text) {
    const auto bytes = base64_decode(text.get<std::string>());
    auto h = bytes ? Histogram::decode(*bytes) : std::nullopt;
    if (!h) throw std::runtime_error("a tick holds a malformed histogram");
    return *h;
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
    return {{"t_ms", s.t_ms},
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
}

IntervalSample sample_from_json(const nlohmann::json& j) {
    try {
        IntervalSample s;
        s.t_ms = j.at("t_ms").get<int64_t>();
        s.interval_ms = j.at("interval_ms").get<int64_t>();
        s.phase = j.at("phase").get<int>();
        s.planned_rate = j.at("planned_rate").get<double>();
        s.connections = j.at("connections").get<int>();
        for (const auto& [name, op] : j.at("ops").items()) {
            OpSample& o = s.ops[name];
            o.count = op.at("count").get<uint64_t>();
            o.errors = op.at("errors").get<uint64_t>();
            o.latency = histogram_from(op.at("latency"));
            o.service = histogram_from(op.at("service"));
            o.check_failures = op.value("check_failures", uint64_t{0});
            if (const auto c = op.find("checks_failed"); c != op.end())
                o.checks_failed = c->get<std::map<std::string, uint64_t>>();
        }
        s.hits = j.at("hits").get<uint64_t>();
        s.misses = j.at("misses").get<uint64_t>();
        s.bytes_in = j.at("bytes_in").get<uint64_t>();
        s.bytes_out = j.at("bytes_out").get<uint64_t>();
        s.sent = j.at("sent").get<uint64_t>();
        s.late = j.at("late").get<uint64_t>();
        s.dropped = j.at("dropped").get<uint64_t>();
        s.first_send_us = j.at("first_send_us").get<int64_t>();
        s.last_send_us = j.at("last_send_us").get<int64_t>();
        s.last_reply_us = j.at("last_reply_us").get<int64_t>();
        for (const auto& [kind, n] : j.at("errors").items())
            s.errors[kind] = n.get<uint64_t>();
        for (const auto& [code, n] : j.at("status_codes").items())
            s.status_codes[std::stoi(code)] = n.get<uint64_t>();
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
