// SPDX-License-Identifier: MIT
#include "key_chooser.h"

#include <charconv>
#include <cstring>

namespace perflab {

KeyChooser::KeyChooser(const KeySpace& keys, uint64_t seed)
    : count_(keys.count), rng_(seed), prefix_len_(keys.prefix.size()) {
    if (keys.distribution == KeyDistribution::zipf) zipf_.emplace(keys.count, keys.zipf_s);
    std::memcpy(buffer_.data(), keys.prefix.data(), prefix_len_);
}

uint64_t KeyChooser::draw() noexcept {
    return zipf_ ? zipf_->sample(rng_) - 1 : rng_.below(count_);
}

std::string_view KeyChooser::format(uint64_t index) noexcept {
    char* begin = buffer_.data() + prefix_len_;
    const auto [end, ec] = std::to_chars(begin, buffer_.data() + buffer_.size(), index);
    return {buffer_.data(), size_t(end - buffer_.data())};
}

}  // namespace perflab
