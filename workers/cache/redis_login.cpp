// SPDX-License-Identifier: MIT
#include "redis_login.h"

namespace perflab {

namespace {

// AUTH with a password alone authenticates as Redis' "default" user.
std::string_view user_or_default(const RedisHandshake& spec) {
    return spec.user.empty() ? std::string_view("default") : std::string_view(spec.user);
}

// Before Redis 6 there is no HELLO ("ERR unknown command"); a server may also refuse the
// version asked for (NOPROTO).
bool no_resp3(const RespReply& reply) {
    return reply.error == RedisError::err || reply.text.starts_with("NOPROTO");
}

}  // namespace

void RedisLogin::begin(OutBuffer& out) {
    if (spec_.hello != 2) {
        step_ = Step::hello;
        if (spec_.password.empty())
            resp_encode_command(out, {"HELLO", "3"});
        else
            resp_encode_command(out,
                                {"HELLO", "3", "AUTH", user_or_default(spec_), spec_.password});
        return;
    }
    after_hello(out);
}

RedisLogin::Outcome RedisLogin::on_reply(const RespReply& reply, OutBuffer& out) {
    if (reply.type != RespType::error) {
        if ((step_ == Step::hello || step_ == Step::auth) && spec_.db) {
            write_select(out);
            return Outcome::next;
        }
        return Outcome::done;
    }
    const std::string text(reply.text);
    if (reply.error == RedisError::noauth)
        return refuse("the server requires a password (cache.redis.password): " + text);
    switch (step_) {
        case Step::hello:
            if (spec_.hello == 0 && no_resp3(reply)) {
                after_hello(out);
                return Outcome::next;
            }
            if (no_resp3(reply))
                return refuse("HELLO 3: " + text +
                              " (\"hello\": 2 speaks RESP2 to a server without RESP3)");
            return refuse((spec_.password.empty() ? "HELLO 3: " : "HELLO 3 with AUTH: ") + text);
        case Step::auth:
            return refuse("AUTH: " + text);
        case Step::select:
            return refuse("SELECT " + std::to_string(*spec_.db) + ": " + text);
        case Step::ping:
            return refuse("PING: " + text);
    }
    return refuse(text);
}

// RESP2: AUTH if there is a password, else SELECT or a PING, so that a server wanting a
// password says so before the first op rather than to every op.
void RedisLogin::after_hello(OutBuffer& out) {
    if (!spec_.password.empty()) {
        step_ = Step::auth;
        if (spec_.user.empty())
            resp_encode_command(out, {"AUTH", spec_.password});
        else
            resp_encode_command(out, {"AUTH", spec_.user, spec_.password});
    } else if (spec_.db) {
        write_select(out);
    } else {
        step_ = Step::ping;
        resp_encode_command(out, {"PING"});
    }
}

void RedisLogin::write_select(OutBuffer& out) {
    step_ = Step::select;
    resp_encode_command(out, {"SELECT", std::to_string(*spec_.db)});
}

RedisLogin::Outcome RedisLogin::refuse(std::string why) {
    error_ = std::move(why);
    return Outcome::refused;
}

}  // namespace perflab
