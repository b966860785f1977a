// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include "model/spec.h"
#include "resp_codec.h"

namespace perflab {

// What a connection to Redis says before its first op, one command at a time: HELLO 3 (with
// AUTH inside it), else AUTH, then SELECT; in RESP2 with neither, a PING. With no "hello"
// given, a server that does not take HELLO 3 (Redis before 6) is spoken to in RESP2. None of
// it is an op of the run, and a refusal (a wrong password, a missing one) ends the run.
class RedisLogin {
  public:
    explicit RedisLogin(const RedisHandshake& spec) : spec_(spec) {}

    // Writes the first command into `out`.
    void begin(OutBuffer& out);

    enum class Outcome { next, done, refused };
    // The reply to the command last written: the next one is written into `out` (next), or
    // the connection is ready (done), or the server refused it (refused: error() says why).
    Outcome on_reply(const RespReply& reply, OutBuffer& out);
    const std::string& error() const noexcept { return error_; }

  private:
    enum class Step { hello, auth, select, ping };

    void after_hello(OutBuffer& out);
    void write_select(OutBuffer& out);
    Outcome refuse(std::string why);

    const RedisHandshake& spec_;
    Step step_ = Step::hello;
    std::string error_;
};

}  // namespace perflab
