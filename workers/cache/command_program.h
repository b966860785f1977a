// SPDX-License-Identifier: MIT
#pragma once

// cache.commands compiled once when the run starts: each command's words as parts (literal
// spans and generators) from model/template_syntax's parse. An op renders its command into a
// link's OutBuffer as a RESP array of bulk strings, parsing nothing and allocating nothing:
// each word's parts are drawn first, so its length goes before it, then written in place.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "memcache_codec.h"
#include "model/spec.h"
#include "rng.h"
#include "value_source.h"
#include "zipf.h"

namespace perflab {

class CommandProgram {
  public:
    // The commands must have passed the spec's check (model/redis_commands.h).
    explicit CommandProgram(const std::vector<RedisCommandSpec>& commands);

    size_t size() const noexcept { return commands_.size(); }
    const std::vector<std::string>& names() const noexcept { return names_; }
    const std::vector<int64_t>& weights() const noexcept { return weights_; }
    // Holds {{key}}: its op draws a key, which every {{key}} of it renders, and goes to that
    // key's server.
    bool keyed(size_t c) const noexcept { return commands_[c].keyed; }
    // What a command without {{key}} is sent by to a server: its first argument as written.
    std::string_view route(size_t c) const noexcept { return commands_[c].route; }
    // A GET: the only command with a hit (a bulk string) or a miss (a nil).
    bool is_get(size_t c) const noexcept { return commands_[c].get; }

    // One worker thread's random stream, {{seq}} counters and scratch; never shared.
    struct State {
        Rng rng;
        std::vector<uint64_t> seq;  // per command: its next {{seq}}
        uint64_t seq_step = 1;
        std::vector<std::string_view> views;                // a word's drawn parts
        std::vector<std::array<char, kUuidChars>> scratch;  // ... their digits
    };
    // Thread `thread` of `threads` numbers each command's ops thread, thread + threads, ...
    State state(uint64_t seed, uint64_t thread, uint64_t threads) const;

    // Writes command c, `key` in every {{key}} and a value of `values` in each {{value}};
    // returns the bytes of its values.
    uint64_t render(size_t c, OutBuffer& out, std::string_view key, ValueSource& values,
                    State& state) const;

  private:
    struct Part {
        enum class Kind : uint8_t { literal, key, value, seq, uniform, zipf, uuid, now_ms, pick };
        Kind kind = Kind::literal;
        uint32_t begin = 0;  // literal: offset into text_; pick: its first choice in choices_
        uint32_t size = 0;   // literal: length; pick: choices
        uint32_t index = 0;  // zipf: sampler
        int64_t low = 0;     // uniform: low + [0, span)
        uint64_t span = 0;
    };
    struct Command {
        uint32_t first_word = 0;
        uint32_t words = 0;
        bool keyed = false;
        bool get = false;
        std::string route;
    };
    struct Word {
        uint32_t first_part = 0;
        uint32_t parts = 0;
    };

    void compile(const std::string& word, Command& command);
    std::string_view draw(const Part& p, std::string_view key, ValueSource& values, State& state,
                          uint64_t seq, std::array<char, kUuidChars>& scratch) const;

    std::vector<Command> commands_;
    std::vector<Word> words_;
    std::vector<Part> parts_;
    std::string text_;  // every literal and choice, back to back
    std::vector<std::pair<uint32_t, uint32_t>> choices_;
    std::vector<ZipfSampler> zipfs_;
    std::vector<std::string> names_;
    std::vector<int64_t> weights_;
    size_t widest_ = 1;  // the most parts of one word
};

}  // namespace perflab
