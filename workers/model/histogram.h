// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace perflab {

// Log-linear latency histogram in microseconds (HdrHistogram's layout): exact below 2048 µs,
// then 1024 linear sub-buckets per power of two, so every recorded value is reported within
// 1/1024 (< 0.1%) of itself, from 0 µs to one hour. Recording is a few instructions and never
// allocates; histograms merge exactly and encode to a compact, lossless byte string.
class Histogram {
  public:
    static constexpr int64_t kHighest = 3'600'000'000;  // one hour in µs

    Histogram();
    Histogram(const Histogram& other);
    Histogram(Histogram&& other);
    Histogram& operator=(const Histogram& other);
    Histogram& operator=(Histogram&& other) noexcept;
    ~Histogram();

    void record(int64_t value_us) noexcept { record_n(value_us, 1); }
    // Values below 0 count as 0, above kHighest as kHighest.
    void record_n(int64_t value_us, uint64_t n) noexcept;
    void merge(const Histogram& other) noexcept;
    void reset() noexcept;
    // A maximum known more exactly than its bucket (an HdrHistogram log's Interval_Max):
    // taken only when it falls in the bucket of the recorded maximum.
    void refine_max(int64_t value_us) noexcept;

    uint64_t count() const noexcept { return count_; }
    bool empty() const noexcept { return count_ == 0; }
    int64_t min() const noexcept { return count_ ? min_ : 0; }
    int64_t max() const noexcept { return count_ ? max_ : 0; }
    uint64_t sum() const noexcept { return sum_; }
    double mean() const noexcept { return count_ ? double(sum_) / double(count_) : 0.0; }

    // The value at percentile p (0..100): the value of rank ceil(p/100 * count) in sorted
    // order, reported as the highest value equivalent to it, clamped to [min, max].
    int64_t percentile(double p) const noexcept;
    static uint64_t rank_for(double p, uint64_t count) noexcept;

    // Calls f(lowest_us, highest_us, count) for every non-empty bucket in ascending order.
    template <class F>
    void for_each_bucket(F&& f) const {
        for (int i = lo_; i <= hi_; ++i)
            if (counts_[i]) f(lowest_at(i), highest_at(i), counts_[i]);
    }

    std::string encode() const;
    static std::optional<Histogram> decode(std::string_view bytes);

    bool operator==(const Histogram& other) const noexcept;

  private:
    static constexpr int kSubBits = 11;
    static constexpr int64_t kSubCount = int64_t{1} << kSubBits;
    static constexpr int64_t kHalf = kSubCount / 2;

    static int index_of(int64_t v) noexcept;
    static int64_t lowest_at(int index) noexcept;
    static int64_t highest_at(int index) noexcept;
    static int slot_count() noexcept;

    static size_t bytes() noexcept;
    static uint64_t* allocate();
    struct Unmap {
        void operator()(uint64_t* p) const noexcept;
    };
    // Anonymous mapping: untouched pages stay unbacked, so an idle histogram costs little.
    std::unique_ptr<uint64_t[], Unmap> counts_;
    int lo_;  // touched index range; reset and merge only walk [lo_, hi_]
    int hi_;
    uint64_t count_ = 0;
    uint64_t sum_ = 0;
    int64_t min_ = 0;
    int64_t max_ = 0;
};

}  // namespace perflab
