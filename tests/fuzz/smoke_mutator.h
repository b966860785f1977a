// SPDX-License-Identifier: MIT
// The smoke driver's mutations: libFuzzer's simplest ones, drawn from a fixed-seed PRNG so a
// failing run repeats.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace perflab::fuzz {

class Mutator {
  public:
    explicit Mutator(std::vector<std::string> corpus, uint64_t seed = 1);
    // One of the corpus' inputs with one to four edits: a bit flipped, bytes inserted or
    // deleted, a byte set to one a parser looks for, or a piece of another input spliced in.
    std::string next();

  private:
    size_t below(size_t n) { return n ? size_t(rng_() % n) : 0; }
    void edit(std::string& s);

    std::vector<std::string> corpus_;
    std::mt19937_64 rng_;
};

}  // namespace perflab::fuzz
