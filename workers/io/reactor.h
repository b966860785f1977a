// SPDX-License-Identifier: MIT
#pragma once

#include <sys/epoll.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

namespace perflab {

using Clock = std::chrono::steady_clock;

// One thread's event loop: an epoll of its own, every descriptor registered once,
// edge-triggered, for reading and writing. Asio re-arms a descriptor (epoll_ctl) for each wait;
// that was an eighth of the cache driver's CPU with one request in flight. Timers wait in
// epoll_pwait2's timeout (nanoseconds), so pacing costs no syscall of its own. Everything but
// post() belongs to the loop's thread.
class Reactor {
  public:
    // Told the readiness (EPOLLIN, EPOLLOUT, EPOLLERR, ...) an edge brought.
    class Handler {
      public:
        virtual void on_ready(uint32_t events) = 0;

      protected:
        ~Handler() = default;
    };

    // A one-shot deadline: armed, it fires once at its time unless cancelled or re-armed.
    class Timer {
      public:
        Timer(Reactor& reactor, std::function<void()> fire)
            : reactor_(reactor), fire_(std::move(fire)) {}
        Timer(const Timer&) = delete;
        Timer& operator=(const Timer&) = delete;
        ~Timer() { cancel(); }

        void arm_at(Clock::time_point at);
        void arm_after(Clock::duration d) { arm_at(Clock::now() + d); }
        void cancel();
        bool armed() const noexcept { return slot_ != kUnarmed; }

      private:
        static constexpr size_t kUnarmed = ~size_t{0};
        Reactor& reactor_;
        std::function<void()> fire_;
        Clock::time_point at_{};
        size_t slot_ = kUnarmed;  // its place in the reactor's heap
        friend class Reactor;
    };

    Reactor();
    ~Reactor();
    Reactor(const Reactor&) = delete;
    Reactor& operator=(const Reactor&) = delete;

    // Registers `fd` (non-blocking) for edges of both directions until remove(id) with the id
    // returned. An edge of a descriptor removed meanwhile is never delivered, even if its
    // number was reused. False, with errno, when epoll refused it.
    bool add(int fd, Handler& handler, uint32_t& id);
    void remove(uint32_t id);

    // Runs `task` on the loop's thread after the handlers of this turn.
    void defer(std::function<void()> task);
    // From any thread: runs `task` on the loop's thread.
    void post(std::function<void()> task);

    // Until stop(), or, once released, until nothing is registered, armed or queued.
    void run();
    void stop() noexcept { stopped_ = true; }
    void release() noexcept { released_ = true; }

  private:
    struct Slot {
        Handler* handler = nullptr;
        int fd = -1;
        uint32_t generation = 0;
    };

    void wait(Clock::time_point now);
    void dispatch(const epoll_event& event);
    void fire_due(Clock::time_point now);
    void take_posted();
    bool idle() const noexcept;
    // The timers' binary heap, earliest first; each timer knows its place.
    void heap_push(Timer& t);
    void heap_erase(size_t i);
    void heap_fix(size_t i);
    void heap_swap(size_t a, size_t b);

    int epoll_ = -1;
    int wake_ = -1;  // an eventfd: post() from another thread
    std::vector<Slot> slots_;
    std::vector<uint32_t> free_slots_;
    size_t registered_ = 0;
    std::vector<Timer*> heap_;
    std::vector<std::function<void()>> deferred_;
    std::vector<std::function<void()>> running_;
    mutable std::mutex posted_mutex_;
    std::vector<std::function<void()>> posted_;
    std::vector<epoll_event> events_;
    bool stopped_ = false;
    bool released_ = false;
    bool pwait2_ = true;  // cleared where the kernel has no epoll_pwait2 (before 5.11)
};

}  // namespace perflab
