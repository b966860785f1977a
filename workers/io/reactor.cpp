// SPDX-License-Identifier: MIT
#include "reactor.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace perflab {

namespace {

constexpr uint64_t kWakeToken = ~uint64_t{0};
constexpr size_t kEventBatch = 256;

uint64_t token(uint32_t id, uint32_t generation) noexcept {
    return uint64_t{generation} << 32 | id;
}

[[noreturn]] void fail(const char* what) {
    throw std::runtime_error(std::string(what) + ": " + std::strerror(errno));
}

}  // namespace

void Reactor::Timer::arm_at(Clock::time_point at) {
    at_ = at;
    if (armed())
        reactor_.heap_fix(slot_);
    else
        reactor_.heap_push(*this);
}

void Reactor::Timer::cancel() {
    if (armed()) reactor_.heap_erase(slot_);
}

Reactor::Reactor() : events_(kEventBatch) {
    epoll_ = epoll_create1(EPOLL_CLOEXEC);
    if (epoll_ < 0) fail("epoll_create1");
    wake_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (wake_ < 0) {
        close(epoll_);
        fail("eventfd");
    }
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLET;
    ev.data.u64 = kWakeToken;
    if (epoll_ctl(epoll_, EPOLL_CTL_ADD, wake_, &ev) != 0) {
        close(wake_);
        close(epoll_);
        fail("epoll_ctl");
    }
}

Reactor::~Reactor() {
    close(wake_);
    close(epoll_);
}

bool Reactor::add(int fd, Handler& handler, uint32_t& id) {
    if (free_slots_.empty()) {
        id = uint32_t(slots_.size());
        slots_.emplace_back();
    } else {
        id = free_slots_.back();
        free_slots_.pop_back();
    }
    Slot& slot = slots_[id];
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
    ev.data.u64 = token(id, slot.generation);
    if (epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &ev) != 0) {
        free_slots_.push_back(id);
        return false;
    }
    slot.handler = &handler;
    slot.fd = fd;
    ++registered_;
    return true;
}

void Reactor::remove(uint32_t id) {
    Slot& slot = slots_[id];
    if (!slot.handler) return;
    epoll_ctl(epoll_, EPOLL_CTL_DEL, slot.fd, nullptr);
    slot.handler = nullptr;
    slot.fd = -1;
    ++slot.generation;
    free_slots_.push_back(id);
    --registered_;
}

void Reactor::defer(std::function<void()> task) {
    deferred_.push_back(std::move(task));
}

void Reactor::post(std::function<void()> task) {
    {
        std::lock_guard lock(posted_mutex_);
        posted_.push_back(std::move(task));
    }
    const uint64_t one = 1;
    [[maybe_unused]] const auto written = write(wake_, &one, sizeof one);
}

void Reactor::run() {
    for (;;) {
        while (!deferred_.empty() && !stopped_) {
            running_.swap(deferred_);
            for (auto& task : running_)
                task();
            running_.clear();
        }
        if (stopped_ || (released_ && idle())) return;
        wait(Clock::now());
        if (stopped_) return;
        fire_due(Clock::now());
    }
}

void Reactor::wait(Clock::time_point now) {
    timespec timeout{};
    const timespec* limit = &timeout;
    if (deferred_.empty()) {
        if (heap_.empty()) {
            limit = nullptr;
        } else if (heap_.front()->at_ > now) {
            const auto ns =
                std::chrono::duration_cast<std::chrono::nanoseconds>(heap_.front()->at_ - now)
                    .count();
            timeout.tv_sec = time_t(ns / 1'000'000'000);
            timeout.tv_nsec = long(ns % 1'000'000'000);
        }
    }
    int n = -1;
    if (pwait2_) {
        n = epoll_pwait2(epoll_, events_.data(), int(events_.size()), limit, nullptr);
        if (n < 0 && errno == ENOSYS) pwait2_ = false;
    }
    if (!pwait2_) {
        // Milliseconds, rounded up: a timer fires late by under a millisecond, never early.
        const int ms =
            limit ? int(timeout.tv_sec * 1000 + (timeout.tv_nsec + 999'999) / 1'000'000) : -1;
        n = epoll_wait(epoll_, events_.data(), int(events_.size()), ms);
    }
    if (n < 0) {
        if (errno == EINTR) return;
        fail("epoll_wait");
    }
    for (int i = 0; i < n && !stopped_; ++i)
        dispatch(events_[size_t(i)]);
}

void Reactor::dispatch(const epoll_event& event) {
    if (event.data.u64 == kWakeToken) return take_posted();
    const auto id = uint32_t(event.data.u64);
    const auto generation = uint32_t(event.data.u64 >> 32);
    const Slot& slot = slots_[id];
    if (slot.handler && slot.generation == generation) slot.handler->on_ready(event.events);
}

void Reactor::fire_due(Clock::time_point now) {
    while (!heap_.empty() && heap_.front()->at_ <= now && !stopped_) {
        Timer& t = *heap_.front();
        heap_erase(0);
        t.fire_();
    }
}

void Reactor::take_posted() {
    uint64_t count = 0;
    [[maybe_unused]] const auto read_back = read(wake_, &count, sizeof count);
    std::vector<std::function<void()>> tasks;
    {
        std::lock_guard lock(posted_mutex_);
        tasks.swap(posted_);
    }
    for (auto& task : tasks)
        defer(std::move(task));
}

bool Reactor::idle() const noexcept {
    if (registered_ || !heap_.empty() || !deferred_.empty()) return false;
    std::lock_guard lock(posted_mutex_);
    return posted_.empty();
}

void Reactor::heap_push(Timer& t) {
    t.slot_ = heap_.size();
    heap_.push_back(&t);
    heap_fix(t.slot_);
}

void Reactor::heap_erase(size_t i) {
    Timer* gone = heap_[i];
    heap_swap(i, heap_.size() - 1);
    heap_.pop_back();
    gone->slot_ = Timer::kUnarmed;
    if (i < heap_.size()) heap_fix(i);
}

// Moves heap_[i] up or down to where its time belongs.
void Reactor::heap_fix(size_t i) {
    while (i > 0 && heap_[i]->at_ < heap_[(i - 1) / 2]->at_) {
        heap_swap(i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    for (;;) {
        size_t least = i;
        for (const size_t child : {2 * i + 1, 2 * i + 2})
            if (child < heap_.size() && heap_[child]->at_ < heap_[least]->at_) least = child;
        if (least == i) return;
        heap_swap(i, least);
        i = least;
    }
}

void Reactor::heap_swap(size_t a, size_t b) {
    std::swap(heap_[a], heap_[b]);
    heap_[a]->slot_ = a;
    heap_[b]->slot_ = b;
}

}  // namespace perflab
