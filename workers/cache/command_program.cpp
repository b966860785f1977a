// SPDX-License-Identifier: MIT
#include "command_program.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdlib>

#include "model/format.h"
#include "model/redis_commands.h"
#include "model/template_syntax.h"

namespace perflab {

namespace {

int64_t to_int(const std::string& s) {
    return std::strtoll(s.c_str(), nullptr, 10);
}

template <class N>
std::string_view number(std::array<char, kUuidChars>& scratch, N n) {
    const auto r = std::to_chars(scratch.data(), scratch.data() + scratch.size(), n);
    return {scratch.data(), size_t(r.ptr - scratch.data())};
}

bool same_word(std::string_view a, std::string_view b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) ==
               std::tolower(static_cast<unsigned char>(y));
    });
}

}  // namespace

CommandProgram::CommandProgram(const std::vector<RedisCommandSpec>& commands)
    : names_(command_op_names(commands)) {
    for (const auto& spec : commands) {
        std::string error;
        const auto words = command_words(spec.cmd, error);
        Command c;
        c.first_word = uint32_t(words_.size());
        c.words = uint32_t(words.size());
        c.get = words.size() == 2 && same_word(words[0], "GET");
        c.route = words.size() > 1 ? words[1] : words.front();
        for (const auto& word : words)
            compile(word, c);
        commands_.push_back(std::move(c));
        weights_.push_back(spec.weight);
    }
}

void CommandProgram::compile(const std::string& word, Command& command) {
    std::string error;
    const ParsedTemplate parsed = parse_template(word, error, TemplateUse::redis_command);
    Word w{uint32_t(parts_.size()), 0};
    for (const auto& piece : parsed.pieces) {
        Part p;
        if (piece.literal) {
            p.begin = uint32_t(text_.size());
            p.size = uint32_t(piece.text.size());
            text_ += piece.text;
            parts_.push_back(p);
            ++w.parts;
            continue;
        }
        switch (piece.var) {
            case TemplateVar::seq:
                p.kind = Part::Kind::seq;
                break;
            case TemplateVar::key:
                p.kind = Part::Kind::key;
                command.keyed = true;
                break;
            case TemplateVar::value:
                p.kind = Part::Kind::value;
                break;
            case TemplateVar::uniform:
                p.kind = Part::Kind::uniform;
                p.low = to_int(piece.args[0]);
                // B − A + 1 wraps to 0 only for the whole int64 range, where below(0) gives 0.
                p.span = uint64_t(to_int(piece.args[1])) - uint64_t(p.low) + 1;
                break;
            case TemplateVar::zipf:
                p.kind = Part::Kind::zipf;
                p.index = uint32_t(zipfs_.size());
                zipfs_.emplace_back(uint64_t(to_int(piece.args[0])),
                                    parse_number(piece.args[1]).value_or(0));
                break;
            case TemplateVar::uuid:
                p.kind = Part::Kind::uuid;
                break;
            case TemplateVar::now_ms:
                p.kind = Part::Kind::now_ms;
                break;
            case TemplateVar::pick:
                p.kind = Part::Kind::pick;
                p.begin = uint32_t(choices_.size());
                p.size = uint32_t(piece.args.size());
                for (const auto& choice : piece.args) {
                    choices_.emplace_back(uint32_t(text_.size()), uint32_t(choice.size()));
                    text_ += choice;
                }
                break;
            // The spec's check refuses them in a Redis command (TemplateUse::redis_command).
            case TemplateVar::env:
            case TemplateVar::csv:
            case TemplateVar::var:
                continue;
        }
        parts_.push_back(p);
        ++w.parts;
    }
    widest_ = std::max<size_t>(widest_, w.parts);
    words_.push_back(w);
}

CommandProgram::State CommandProgram::state(uint64_t seed, uint64_t thread,
                                            uint64_t threads) const {
    return {Rng(seed), std::vector<uint64_t>(commands_.size(), thread),
            std::max<uint64_t>(1, threads), std::vector<std::string_view>(widest_),
            std::vector<std::array<char, kUuidChars>>(widest_)};
}

std::string_view CommandProgram::draw(const Part& p, std::string_view key, ValueSource& values,
                                      State& state, uint64_t seq,
                                      std::array<char, kUuidChars>& scratch) const {
    switch (p.kind) {
        case Part::Kind::literal:
            return {text_.data() + p.begin, p.size};
        case Part::Kind::key:
            return key;
        case Part::Kind::value:
            return values.next();
        case Part::Kind::seq:
            return number(scratch, seq);
        case Part::Kind::uniform:
            return number(scratch, int64_t(uint64_t(p.low) + state.rng.below(p.span)));
        case Part::Kind::zipf:
            return number(scratch, zipfs_[p.index].sample(state.rng));
        case Part::Kind::uuid:
            format_uuid(scratch.data(), state.rng);
            return {scratch.data(), kUuidChars};
        case Part::Kind::now_ms:
            return number(scratch, int64_t(std::chrono::duration_cast<std::chrono::milliseconds>(
                                               std::chrono::system_clock::now().time_since_epoch())
                                               .count()));
        case Part::Kind::pick: {
            const auto [begin, size] = choices_[p.begin + state.rng.below(p.size)];
            return {text_.data() + begin, size};
        }
    }
    return {};
}

uint64_t CommandProgram::render(size_t c, OutBuffer& out, std::string_view key, ValueSource& values,
                                State& state) const {
    const Command& command = commands_[c];
    const uint64_t seq = state.seq[c];
    state.seq[c] += state.seq_step;
    uint64_t value_bytes = 0;
    out.append("*");
    out.append_number(command.words);
    out.append("\r\n");
    for (uint32_t w = command.first_word; w < command.first_word + command.words; ++w) {
        const Word& word = words_[w];
        size_t length = 0;
        for (uint32_t i = 0; i < word.parts; ++i) {
            const Part& part = parts_[word.first_part + i];
            const auto v = draw(part, key, values, state, seq, state.scratch[i]);
            if (part.kind == Part::Kind::value) value_bytes += v.size();
            state.views[i] = v;
            length += v.size();
        }
        out.append("$");
        out.append_number(length);
        out.append("\r\n");
        for (uint32_t i = 0; i < word.parts; ++i)
            out.append(state.views[i]);
        out.append("\r\n");
    }
    return value_bytes;
}

}  // namespace perflab
