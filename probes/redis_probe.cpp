// SPDX-License-Identifier: MIT
#include "redis_probe.h"

namespace perflab {

RedisProbe::RedisProbe(RedisTarget target) : target_(std::move(target)) {}

RedisProbe::~RedisProbe() {
    close();
}

std::string RedisProbe::source() const {
    const bool v6 = target_.host.find(':') != std::string::npos;
    return "redis " + (v6 ? "[" + target_.host + "]" : target_.host) + ":" +
           std::to_string(target_.port) + (target_.via ? " via " + target_.via->text() : "");
}

void RedisProbe::connect() {
    try {
        if (!target_.via) {
            link_ = tcp_redis_link(target_.host, target_.port, target_.timeout_ms);
        } else {
            if (!ssh_) {
                auto session = std::make_unique<SshSession>(*target_.via, target_.ssh_options);
                session->connect();
                ssh_ = std::move(session);
            }
            link_ = ssh_redis_link(*ssh_, target_.host, target_.port);
        }
    } catch (const ProbeError& e) {
        if (dynamic_cast<const SshError*>(&e)) ssh_.reset();
        close();
        throw ProbeError(source() + ": " + e.what());
    }
    if (target_.password.empty()) return;
    const RedisProbeReply r = request(resp_command({"AUTH", target_.password}));
    if (r.type != '+') {
        close();
        throw ProbeError(source() + ": AUTH refused: " + r.text);
    }
}

RedisProbeReply RedisProbe::request(const std::string& command) {
    try {
        link_->send(command);
        std::string buffer;
        while (true) {
            if (auto reply = read_resp_reply(buffer)) return std::move(reply->first);
            link_->receive(buffer, target_.timeout_ms);
        }
    } catch (const std::runtime_error& e) {
        // An SSH session that broke is opened again with the next connection.
        if (dynamic_cast<const SshError*>(&e)) ssh_.reset();
        close();
        throw ProbeError(source() + ": " + e.what());
    }
}

std::map<std::string, std::string> RedisProbe::fetch() {
    if (!link_) connect();
    const RedisProbeReply r = request(resp_command({"INFO", "all"}));
    if (r.type != '$' || r.nil) {
        close();
        throw ProbeError(source() + ": INFO refused: " + r.text);
    }
    return parse_redis_info(r.text);
}

void RedisProbe::open() {
    const auto started = Clock::now();
    last_ = fetch();
    last_time_ = round_trip_middle(started);
}

ProbeReading RedisProbe::poll() {
    ProbeReading r;
    r.ready = true;
    const bool was_connected = link_ != nullptr;
    try {
        // A server busy with the load may answer its stats late: the rates run between the
        // middles of the round trips, as the Prometheus probe's do.
        const auto started = Clock::now();
        auto now = fetch();
        const auto t = round_trip_middle(started);
        r.taken_at = t;
        // Just reconnected: this tick is still part of the gap, and only a baseline.
        r.gap = !was_connected;
        if (was_connected)
            r.values =
                redis_values(last_, now, std::chrono::duration<double>(t - last_time_).count());
        last_ = std::move(now);
        last_time_ = t;
    } catch (const ProbeError& e) {
        r.gap = true;
        if (was_connected) r.events.push_back({0, "error", std::string("probe ") + e.what()});
    }
    return r;
}

void RedisProbe::close() {
    link_.reset();
}

}  // namespace perflab
