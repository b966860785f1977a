// SPDX-License-Identifier: MIT
// The engines' own event loop: timers in their order, a descriptor's edges only to its
// current handler, another thread's post waking it, and the run ending once released.
#include "io/reactor.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <thread>
#include <vector>

namespace perflab {
namespace {

using std::chrono::milliseconds;

struct Pair {
    int fd[2] = {-1, -1};
    Pair() { EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fd), 0); }
    ~Pair() {
        for (const int f : fd)
            if (f >= 0) close(f);
    }
};

struct Recorder final : Reactor::Handler {
    std::vector<uint32_t> events;
    std::function<void()> then;
    void on_ready(uint32_t e) override {
        events.push_back(e);
        if (then) then();
    }
};

TEST(Reactor, TimersFireOnceEachInTheOrderOfTheirTimes) {
    Reactor reactor;
    std::vector<int> fired;
    const auto start = Clock::now();
    std::vector<std::unique_ptr<Reactor::Timer>> timers;
    for (int i = 0; i < 6; ++i)
        timers.push_back(std::make_unique<Reactor::Timer>(reactor, [&, i] { fired.push_back(i); }));
    // Armed out of order; 4 is cancelled, 5 moved from first to last.
    const int order[] = {3, 0, 2, 1};
    for (const int i : order)
        timers[size_t(i)]->arm_at(start + milliseconds(2 * (i + 1)));
    timers[5]->arm_at(start);
    timers[4]->arm_at(start + milliseconds(1));
    timers[4]->cancel();
    timers[5]->arm_at(start + milliseconds(20));
    EXPECT_FALSE(timers[4]->armed());
    reactor.release();
    reactor.run();
    EXPECT_EQ(fired, (std::vector<int>{0, 1, 2, 3, 5}));
    EXPECT_GE(Clock::now(), start + milliseconds(20));  // the last fired no earlier than its time
    for (const auto& t : timers)
        EXPECT_FALSE(t->armed());
}

// Two sockets ready in one wait: the first handler removes the second socket and registers a
// new one that takes its number and its slot. The second socket's edge, already read from
// epoll, must reach no one, and the new socket only its own edges (it is never readable).
TEST(Reactor, AnEdgeOfARemovedDescriptorReachesNoOneEvenWhenItsNumberIsReused) {
    Reactor reactor;
    Pair a, b;
    Recorder ra, rb, fresh;
    uint32_t ida = 0, idb = 0, idf = 0;
    ASSERT_TRUE(reactor.add(a.fd[0], ra, ida));
    ASSERT_TRUE(reactor.add(b.fd[0], rb, idb));
    Pair renewed;
    auto swap_out = [&](Pair& other, uint32_t other_id) {
        reactor.remove(other_id);
        const int number = other.fd[0];
        close(number);
        other.fd[0] = -1;
        ASSERT_EQ(dup2(renewed.fd[0], number), number);
        ASSERT_TRUE(reactor.add(number, fresh, idf));
        EXPECT_EQ(idf, other_id);  // the slot is reused, with a new generation
        other.fd[0] = number;
        reactor.defer([&] { reactor.stop(); });
    };
    bool swapped = false;
    ra.then = [&] {
        if (!std::exchange(swapped, true)) swap_out(b, idb);
    };
    rb.then = [&] {
        if (!std::exchange(swapped, true)) swap_out(a, ida);
    };
    ASSERT_EQ(write(a.fd[1], "x", 1), 1);
    ASSERT_EQ(write(b.fd[1], "y", 1), 1);
    reactor.run();
    ASSERT_TRUE(swapped);
    EXPECT_EQ(ra.events.size() + rb.events.size(), 1u);
    for (const uint32_t e : fresh.events)
        EXPECT_FALSE(e & EPOLLIN) << "the removed socket's edge reached the new handler";
}

TEST(Reactor, EachArrivalAfterTheSocketWasEmptiedBringsAnEdge) {
    Reactor reactor;
    Pair p;
    Recorder r;
    uint32_t id = 0;
    ASSERT_TRUE(reactor.add(p.fd[0], r, id));
    int readable = 0;
    r.then = [&] {
        if (!(r.events.back() & EPOLLIN)) return;
        char buf[16];
        while (read(p.fd[0], buf, sizeof buf) > 0) {
        }
        if (++readable < 3)
            ASSERT_EQ(write(p.fd[1], "z", 1), 1);
        else
            reactor.stop();
    };
    ASSERT_EQ(write(p.fd[1], "z", 1), 1);
    reactor.run();
    EXPECT_EQ(readable, 3);
}

TEST(Reactor, APostFromAnotherThreadWakesALoopWaitingOnNothing) {
    Reactor reactor;
    int ran = 0;
    std::thread other([&] {
        reactor.post([&] {
            ++ran;
            reactor.stop();
        });
    });
    reactor.run();
    other.join();
    EXPECT_EQ(ran, 1);
}

TEST(Reactor, AReleasedRunEndsWhenItsLastDescriptorIsRemoved) {
    Reactor reactor;
    Pair p;
    Recorder r;
    uint32_t id = 0;
    ASSERT_TRUE(reactor.add(p.fd[0], r, id));
    Reactor::Timer later(reactor, [&] { reactor.remove(id); });
    later.arm_after(milliseconds(1));
    reactor.release();
    reactor.run();
    EXPECT_FALSE(later.armed());
}

}  // namespace
}  // namespace perflab
