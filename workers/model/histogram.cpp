// SPDX-License-Identifier: MIT
#include "histogram.h"

#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <new>

namespace perflab {

namespace {

constexpr unsigned char kMagic = 'H';
constexpr unsigned char kVersion = 1;

void put_varint(std::string& out, uint64_t v) {
    while (v >= 0x80) {
        out.push_back(char(v | 0x80));
        v >>= 7;
    }
    out.push_back(char(v));
}

bool get_varint(std::string_view& in, uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (in.empty()) return false;
        const auto byte = static_cast<unsigned char>(in.front());
        in.remove_prefix(1);
        v |= uint64_t(byte & 0x7f) << shift;
        if (!(byte & 0x80)) return true;
    }
    return false;
}

// Histograms decoded, copied and moved by the thousand (a stored hour read back) would
// each cost an mmap, page faults and an munmap. Each thread keeps a few released mappings,
// zeroed over their touched range, for the next histogram to take. The pool is trivially
// destructible so that a histogram destroyed late in a thread's exit still finds it.
struct MappingPool {
    static constexpr int kCapacity = 16;
    uint64_t* free[kCapacity];
    int size;
    size_t bytes;  // of each mapping
    bool closed;
};
thread_local MappingPool pool{};

struct PoolCloser {
    ~PoolCloser() {
        pool.closed = true;
        while (pool.size > 0)
            munmap(pool.free[--pool.size], pool.bytes);
    }
};
thread_local PoolCloser closer;

}  // namespace

size_t Histogram::bytes() noexcept {
    return size_t(slot_count()) * sizeof(uint64_t);
}

// mmap rather than calloc: malloc's dynamic threshold would soon serve these from the heap,
// zeroed by hand, so every idle histogram would cost its full size in resident memory.
uint64_t* Histogram::allocate() {
    if (pool.size > 0) return pool.free[--pool.size];
    void* p = mmap(nullptr, bytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return static_cast<uint64_t*>(p);
}

// Recycles rather than unmaps while this thread's pool has room.
void Histogram::Unmap::operator()(uint64_t* p) const noexcept {
    (void)&closer;  // constructs this thread's closer, so its pool is emptied at thread exit
    if (!pool.closed && pool.size < MappingPool::kCapacity) {
        pool.bytes = bytes();
        pool.free[pool.size++] = p;
    } else {
        munmap(p, bytes());
    }
}

int Histogram::index_of(int64_t v) noexcept {
    if (v < kSubCount) return int(v);
    const int shift = std::bit_width(uint64_t(v)) - kSubBits;  // >= 1
    return int(shift * kHalf + (v >> shift));
}

int64_t Histogram::lowest_at(int index) noexcept {
    if (index < kSubCount) return index;
    const int shift = int(index / kHalf) - 1;
    return (index - shift * kHalf) << shift;
}

int64_t Histogram::highest_at(int index) noexcept {
    if (index < kSubCount) return index;
    const int shift = int(index / kHalf) - 1;
    return lowest_at(index) + (int64_t{1} << shift) - 1;
}

int Histogram::slot_count() noexcept {
    return index_of(kHighest) + 1;
}

Histogram::Histogram() : counts_(allocate()), lo_(slot_count()), hi_(-1) {}

Histogram::Histogram(const Histogram& other) : Histogram() {
    merge(other);
}

// Leaves other empty but usable; the fresh mapping costs no resident memory. Not noexcept:
// that mapping may fail.
Histogram::Histogram(Histogram&& other) : Histogram() {
    *this = std::move(other);
}

Histogram& Histogram::operator=(const Histogram& other) {
    if (this != &other) {
        reset();
        merge(other);
    }
    return *this;
}

Histogram& Histogram::operator=(Histogram&& other) noexcept {
    std::swap(counts_, other.counts_);
    std::swap(lo_, other.lo_);
    std::swap(hi_, other.hi_);
    std::swap(count_, other.count_);
    std::swap(sum_, other.sum_);
    std::swap(min_, other.min_);
    std::swap(max_, other.max_);
    return *this;
}

// Zeroes what this histogram touched, so its mapping can be recycled as a fresh one.
Histogram::~Histogram() {
    reset();
}

void Histogram::record_n(int64_t value_us, uint64_t n) noexcept {
    if (n == 0) return;
    const int64_t v = std::clamp<int64_t>(value_us, 0, kHighest);
    const int i = index_of(v);
    counts_[i] += n;
    lo_ = std::min(lo_, i);
    hi_ = std::max(hi_, i);
    if (count_ == 0 || v < min_) min_ = v;
    if (count_ == 0 || v > max_) max_ = v;
    count_ += n;
    sum_ += uint64_t(v) * n;
}

void Histogram::merge(const Histogram& other) noexcept {
    if (other.count_ == 0) return;
    for (int i = other.lo_; i <= other.hi_; ++i)
        counts_[i] += other.counts_[i];
    lo_ = std::min(lo_, other.lo_);
    hi_ = std::max(hi_, other.hi_);
    min_ = count_ ? std::min(min_, other.min_) : other.min_;
    max_ = count_ ? std::max(max_, other.max_) : other.max_;
    count_ += other.count_;
    sum_ += other.sum_;
}

void Histogram::refine_max(int64_t value_us) noexcept {
    if (count_ && value_us >= min_ && index_of(value_us) == index_of(max_)) max_ = value_us;
}

void Histogram::reset() noexcept {
    if (hi_ >= lo_) std::memset(&counts_[lo_], 0, size_t(hi_ - lo_ + 1) * sizeof(uint64_t));
    lo_ = slot_count();
    hi_ = -1;
    count_ = sum_ = 0;
    min_ = max_ = 0;
}

uint64_t Histogram::rank_for(double p, uint64_t count) noexcept {
    if (count == 0) return 0;
    const double exact = std::clamp(p, 0.0, 100.0) / 100.0 * double(count);
    // Guard against 99.9% of 1000 evaluating to 999.0000000001 and rounding up a whole rank.
    const auto rank = uint64_t(std::ceil(exact - 1e-9 * std::max(1.0, exact)));
    return std::clamp<uint64_t>(rank, 1, count);
}

int64_t Histogram::percentile(double p) const noexcept {
    const uint64_t rank = rank_for(p, count_);
    if (rank == 0) return 0;
    uint64_t seen = 0;
    for (int i = lo_; i <= hi_; ++i) {
        seen += counts_[i];
        if (seen >= rank) return std::clamp(highest_at(i), min_, max_);
    }
    return max_;
}

// Layout: magic, version, min, max, sum, first index, then one zigzag varint per slot up to
// the last non-empty one: a count (> 0) or a run of empty slots (negative).
std::string Histogram::encode() const {
    std::string out;
    out.push_back(char(kMagic));
    out.push_back(char(kVersion));
    if (count_ == 0) return out;
    put_varint(out, uint64_t(min_));
    put_varint(out, uint64_t(max_));
    put_varint(out, sum_);
    put_varint(out, uint64_t(lo_));
    int last = hi_;
    while (last >= lo_ && counts_[last] == 0)
        --last;
    for (int i = lo_; i <= last;) {
        if (counts_[i]) {
            put_varint(out, counts_[i] << 1);
            ++i;
            continue;
        }
        int run = 0;
        while (counts_[i] == 0)
            ++i, ++run;
        put_varint(out, (uint64_t(run) << 1) | 1);
    }
    return out;
}

std::optional<Histogram> Histogram::decode(std::string_view in) {
    if (in.size() < 2 || static_cast<unsigned char>(in[0]) != kMagic ||
        static_cast<unsigned char>(in[1]) != kVersion)
        return std::nullopt;
    in.remove_prefix(2);
    Histogram h;
    if (in.empty()) return h;
    uint64_t min = 0, max = 0, sum = 0, index = 0;
    if (!get_varint(in, min) || !get_varint(in, max) || !get_varint(in, sum) ||
        !get_varint(in, index))
        return std::nullopt;
    if (max > uint64_t(kHighest) || min > max) return std::nullopt;
    const auto slots = uint64_t(slot_count());
    if (index >= slots) return std::nullopt;
    while (!in.empty()) {
        uint64_t word = 0;
        if (!get_varint(in, word)) return std::nullopt;
        const uint64_t n = word >> 1;
        if (word & 1) {
            if (n > slots - index) return std::nullopt;  // a skip past the end, or wrapped
            index += n;
            continue;
        }
        if (index >= slots || n == 0 || n > UINT64_MAX - h.count_) return std::nullopt;
        const int i = int(index++);
        h.counts_[i] = n;
        h.lo_ = std::min(h.lo_, i);
        h.hi_ = std::max(h.hi_, i);
        h.count_ += n;
    }
    if (h.count_ == 0) return std::nullopt;
    if (index_of(int64_t(min)) != h.lo_ || index_of(int64_t(max)) != h.hi_) return std::nullopt;
    h.min_ = int64_t(min);
    h.max_ = int64_t(max);
    h.sum_ = sum;
    return h;
}

bool Histogram::operator==(const Histogram& other) const noexcept {
    if (count_ != other.count_ || sum_ != other.sum_ || min() != other.min() ||
        max() != other.max())
        return false;
    if (count_ == 0) return true;
    if (lo_ != other.lo_ || hi_ != other.hi_) return false;
    return std::memcmp(&counts_[lo_], &other.counts_[lo_], size_t(hi_ - lo_ + 1) * 8) == 0;
}

}  // namespace perflab
