// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstddef>
#include <new>
#include <utility>

namespace perflab {

// Room for the asynchronous operations a connection has in flight at once: its write and its
// read (152 and 256 bytes on plain TCP). Asio allocates an operation through its handler's
// allocator; without this its own per-thread cache (one block per kind) misses on every
// request with two operations in flight and falls back to the heap. Single-threaded, like the
// connection using it. It must outlive the io_context: an operation still queued when the
// io_context goes is freed by it.
class HandlerMemory {
  public:
    void* allocate(std::size_t size) {
        for (size_t i = 0; i < slots_.size(); ++i)
            if (!used_[i] && size <= sizeof(Slot)) {
                used_[i] = true;
                return slots_[i].bytes;
            }
        return ::operator new(size);  // an operation larger than expected still works
    }
    void deallocate(void* p) noexcept {
        for (size_t i = 0; i < slots_.size(); ++i)
            if (p == slots_[i].bytes) {
                used_[i] = false;
                return;
            }
        ::operator delete(p);
    }

  private:
    struct alignas(std::max_align_t) Slot {
        unsigned char bytes[512];
    };
    std::array<Slot, 2> slots_;
    std::array<bool, 2> used_{};
};

template <class T>
class HandlerAllocator {
  public:
    using value_type = T;
    explicit HandlerAllocator(HandlerMemory& memory) noexcept : memory_(&memory) {}
    template <class U>
    HandlerAllocator(const HandlerAllocator<U>& other) noexcept : memory_(other.memory()) {}

    T* allocate(std::size_t n) { return static_cast<T*>(memory_->allocate(n * sizeof(T))); }
    void deallocate(T* p, std::size_t) noexcept { memory_->deallocate(p); }
    HandlerMemory* memory() const noexcept { return memory_; }

    template <class U>
    bool operator==(const HandlerAllocator<U>& other) const noexcept {
        return memory_ == other.memory();
    }
    template <class U>
    bool operator!=(const HandlerAllocator<U>& other) const noexcept {
        return memory_ != other.memory();
    }

  private:
    HandlerMemory* memory_;
};

// A completion handler whose operations Asio (and Beast, which passes the allocator on)
// allocates from `memory`.
template <class F>
class InMemory {
  public:
    using allocator_type = HandlerAllocator<std::byte>;
    InMemory(HandlerMemory& memory, F f) : memory_(&memory), f_(std::move(f)) {}
    allocator_type get_allocator() const noexcept { return allocator_type(*memory_); }
    template <class... Args>
    void operator()(Args&&... args) {
        f_(std::forward<Args>(args)...);
    }

  private:
    HandlerMemory* memory_;
    F f_;
};

}  // namespace perflab
