// SPDX-License-Identifier: MIT
#include "smoke_mutator.h"

#include <string_view>
#include <utility>

namespace perflab::fuzz {

namespace {

using namespace std::string_view_literals;

// Bytes the formats hinge on: delimiters, digits, signs, line ends, extremes.
constexpr std::string_view kSpecial = "\",:{}[]\n\r\t -+.0129eE=#\\\x00\x7f\x80\xff"sv;
// Inputs grow no larger than this: the smoke run is about breadth, not size.
constexpr size_t kMaxSize = 64 * 1024;

}  // namespace

Mutator::Mutator(std::vector<std::string> corpus, uint64_t seed)
    : corpus_(std::move(corpus)), rng_(seed) {
    if (corpus_.empty()) corpus_.emplace_back();
}

void Mutator::edit(std::string& s) {
    switch (below(6)) {
        case 0:  // flip a bit
            if (!s.empty()) s[below(s.size())] ^= char(1 << below(8));
            break;
        case 1:  // insert random bytes
            s.insert(below(s.size() + 1), std::string(1 + below(8), char(rng_())));
            break;
        case 2: {  // delete a range
            const size_t at = below(s.size());
            s.erase(at, 1 + below(16));
            break;
        }
        case 3:  // set a byte to one the parsers look for
            if (!s.empty()) s[below(s.size())] = kSpecial[below(kSpecial.size())];
            break;
        case 4: {  // splice in a piece of another input
            const std::string& other = corpus_[below(corpus_.size())];
            const size_t from = below(other.size());
            s.insert(below(s.size() + 1), other.substr(from, 1 + below(64)));
            break;
        }
        default: {  // repeat a piece of this one
            const size_t from = below(s.size());
            s.insert(below(s.size() + 1), s.substr(from, 1 + below(32)));
            break;
        }
    }
}

std::string Mutator::next() {
    std::string s = corpus_[below(corpus_.size())];
    for (size_t n = 1 + below(4); n > 0; --n)
        edit(s);
    if (s.size() > kMaxSize) s.resize(kMaxSize);
    return s;
}

}  // namespace perflab::fuzz
