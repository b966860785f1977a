// SPDX-License-Identifier: MIT
// The floor under any load generator's client CPU per operation: a client that does nothing
// but put a request's bytes on a socket and take its reply off, one request in flight per
// connection, on one thread; no histogram, no stats, no timers. Whatever a real client
// (PerfLab, memcaslap, wrk) spends above this is its own work; this much is the kernel's TCP
// path, the same for every tool. Run by cache_vs_memcaslap.py and http_vs_wrk.py with
// --floor (not a test, not in ctest).
//
// Two transports: epoll (each socket registered once, edge-triggered, read until the reply is
// whole: one send and one recv per operation, an epoll_wait per batch of ready sockets) and
// io_uring (every send and recv of a batch queued and submitted in one io_uring_enter, with
// deferred task work where the kernel has it).
//
// Usage: transport_floor PORT CONNECTIONS SECONDS epoll|uring memcache|http [options]
//   memcache: --keys N --prefix P --value-min B --value-max B --get-ratio G --set-ratio S
//   http:     --path /p
//        transport_floor --check-uring   (exits 0 when io_uring can be set up here, else 3)
// Prints `requests N seconds S` on success; exits 3 when io_uring cannot be set up here.
#include <arpa/inet.h>
#include <fcntl.h>
#include <liburing.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Conn {
    int fd = -1;
    std::string request;
    std::vector<char> in;
    size_t len = 0;
    bool get = false;  // memcache: a get's reply ends in END, a set's in a status line
};

struct Options {
    int port = 0;
    int connections = 0;
    double seconds = 0;
    std::string transport;
    std::string protocol;
    uint64_t keys = 100000;
    std::string prefix = "k";
    size_t value_min = 128;
    size_t value_max = 10240;
    unsigned get_ratio = 10;
    unsigned set_ratio = 1;
    std::string path = "/";
};

[[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "transport_floor: %s\n", what.c_str());
    std::exit(2);
}

// The requests a client of the bench's workload sends, and where its replies end.
class Workload {
  public:
    explicit Workload(const Options& o)
        : o_(o),
          http_(o.protocol == "http"),
          httpRequest_("GET " + o.path + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(o.port) +
                       "\r\n\r\n"),
          value_(o.value_max, 'x'),
          rng_(42),
          key_(0, o.keys - 1),
          size_(o.value_min, o.value_max),
          op_(0, o.get_ratio + o.set_ratio - 1) {}

    // Written into the connection's own string, whose capacity stays: the floor allocates
    // nothing per request, so its CPU is the kernel's and not its own.
    void next(Conn& c) {
        c.len = 0;
        if (http_) {
            c.request.assign(httpRequest_);
            return;
        }
        c.get = op_(rng_) < o_.get_ratio;
        c.request.assign(c.get ? "get " : "set ").append(o_.prefix);
        appendNumber(c.request, key_(rng_));
        if (c.get) {
            c.request.append("\r\n");
            return;
        }
        const size_t n = size_(rng_);
        c.request.append(" 0 0 ");
        appendNumber(c.request, n);
        c.request.append("\r\n").append(value_.data(), n).append("\r\n");
    }

    // Room for the largest reply: a value and its lines, or a response's headers and body.
    size_t replyRoom() const { return http_ ? 16384 : o_.value_max + 1024; }

    bool whole(const Conn& c) const {
        const std::string_view in(c.in.data(), c.len);
        const bool done = http_ ? wholeHttp(in) : wholeMemcache(c, in);
        if (!done && c.len == c.in.size()) fail("a reply larger than the receive buffer");
        return done;
    }

  private:
    static void appendNumber(std::string& out, uint64_t n) {
        char digits[24];
        const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
        out.append(digits, size_t(end - digits));
    }

    static bool wholeMemcache(const Conn& c, std::string_view in) {
        const size_t eol = in.find("\r\n");
        if (eol == std::string_view::npos) return false;
        if (!c.get || in.starts_with("END\r\n")) return true;
        // VALUE <key> <flags> <bytes>\r\n<data>\r\nEND\r\n
        const size_t bytes = std::strtoul(in.data() + in.rfind(' ', eol) + 1, nullptr, 10);
        return in.size() >= eol + 2 + bytes + 2 + 5;
    }

    static bool wholeHttp(std::string_view in) {
        const size_t end = in.find("\r\n\r\n");
        if (end == std::string_view::npos) return false;
        size_t body = 0;
        for (size_t at = in.find("\r\n"); at < end; at = in.find("\r\n", at + 2)) {
            constexpr std::string_view kName = "content-length:";
            if (strncasecmp(in.data() + at + 2, kName.data(), kName.size()) == 0)
                body = std::strtoul(in.data() + at + 2 + kName.size(), nullptr, 10);
        }
        return in.size() >= end + 4 + body;
    }

    const Options& o_;
    const bool http_;
    const std::string httpRequest_;
    const std::string value_;
    std::mt19937_64 rng_;
    std::uniform_int_distribution<uint64_t> key_;
    std::uniform_int_distribution<size_t> size_;
    std::uniform_int_distribution<unsigned> op_;
};

int connectTo(int port) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(uint16_t(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
        fail("connect to 127.0.0.1:" + std::to_string(port) + ": " + std::strerror(errno));
    const int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

void sendAll(const Conn& c) {
    // The requests are smaller than the socket's send buffer, which is empty between them.
    if (send(c.fd, c.request.data(), c.request.size(), 0) != ssize_t(c.request.size()))
        fail(std::string("send: ") + std::strerror(errno));
}

uint64_t runEpoll(std::vector<Conn>& conns, Workload& w, Clock::time_point end) {
    const int ep = epoll_create1(0);
    for (size_t i = 0; i < conns.size(); ++i) {
        fcntl(conns[i].fd, F_SETFL, O_NONBLOCK);
        epoll_event e{};
        e.events = EPOLLIN | EPOLLET;
        e.data.u64 = i;
        epoll_ctl(ep, EPOLL_CTL_ADD, conns[i].fd, &e);
        w.next(conns[i]);
        sendAll(conns[i]);
    }
    uint64_t done = 0;
    epoll_event ready[64];
    while (Clock::now() < end) {
        const int n = epoll_wait(ep, ready, 64, 100);
        for (int k = 0; k < n; ++k) {
            Conn& c = conns[ready[k].data.u64];
            // Edge-triggered: read until the reply is whole or the socket is empty; with one
            // request in flight nothing follows a whole reply until the next send.
            for (;;) {
                const ssize_t got = recv(c.fd, c.in.data() + c.len, c.in.size() - c.len, 0);
                if (got == 0) fail("the server closed a connection");
                if (got < 0) {
                    if (errno == EAGAIN) break;
                    fail(std::string("recv: ") + std::strerror(errno));
                }
                c.len += size_t(got);
                if (!w.whole(c)) continue;
                ++done;
                w.next(c);
                sendAll(c);
                break;
            }
        }
    }
    close(ep);
    return done;
}

class Ring {
  public:
    Ring() {
        io_uring_params p{};
        // Completions are posted when the thread asks for them, not by interrupting it.
        p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
        int err = io_uring_queue_init_params(4096, &ring_, &p);
        if (err == -EINVAL) {
            p = {};
            err = io_uring_queue_init_params(4096, &ring_, &p);
        }
        if (err < 0) {
            std::fprintf(stderr, "transport_floor: io_uring unavailable: %s\n",
                         std::strerror(-err));
            std::exit(3);
        }
    }
    ~Ring() { io_uring_queue_exit(&ring_); }
    Ring(const Ring&) = delete;
    Ring& operator=(const Ring&) = delete;

    void send(const Conn& c, uint64_t i) {
        io_uring_sqe* s = sqe();
        io_uring_prep_send(s, c.fd, c.request.data(), c.request.size(), 0);
        io_uring_sqe_set_data64(s, i << 1);
    }
    void recv(Conn& c, uint64_t i) {
        io_uring_sqe* s = sqe();
        io_uring_prep_recv(s, c.fd, c.in.data() + c.len, c.in.size() - c.len, 0);
        io_uring_sqe_set_data64(s, (i << 1) | 1);
    }
    io_uring* get() { return &ring_; }

  private:
    // A full submission queue (more connections than its entries) goes to the kernel first.
    io_uring_sqe* sqe() {
        io_uring_sqe* s = io_uring_get_sqe(&ring_);
        if (s) return s;
        io_uring_submit(&ring_);
        return io_uring_get_sqe(&ring_);
    }

    io_uring ring_{};
};

uint64_t runUring(std::vector<Conn>& conns, Workload& w, Clock::time_point end) {
    Ring ring;
    for (size_t i = 0; i < conns.size(); ++i) {
        w.next(conns[i]);
        ring.send(conns[i], i);
        ring.recv(conns[i], i);
    }
    uint64_t done = 0;
    while (Clock::now() < end) {
        io_uring_submit_and_wait(ring.get(), 1);
        unsigned head = 0;
        unsigned seen = 0;
        io_uring_cqe* cqe = nullptr;
        io_uring_for_each_cqe(ring.get(), head, cqe) {
            ++seen;
            const uint64_t data = io_uring_cqe_get_data64(cqe);
            const uint64_t i = data >> 1;
            if (cqe->res < 0) fail(std::string("io_uring: ") + std::strerror(-cqe->res));
            if ((data & 1) == 0) {
                if (size_t(cqe->res) != conns[i].request.size()) fail("short send");
                continue;
            }
            if (cqe->res == 0) fail("the server closed a connection");
            Conn& c = conns[i];
            c.len += size_t(cqe->res);
            if (w.whole(c)) {
                ++done;
                w.next(c);
                ring.send(c, i);
            }
            ring.recv(c, i);
        }
        io_uring_cq_advance(ring.get(), seen);
    }
    return done;
}

Options parse(int argc, char** argv) {
    if (argc < 6)
        fail(
            "usage: transport_floor PORT CONNECTIONS SECONDS epoll|uring memcache|http "
            "[--keys N --prefix P --value-min B --value-max B --get-ratio G --set-ratio S "
            "--path /p]");
    Options o;
    o.port = std::atoi(argv[1]);
    o.connections = std::atoi(argv[2]);
    o.seconds = std::atof(argv[3]);
    o.transport = argv[4];
    o.protocol = argv[5];
    for (int i = 6; i + 1 < argc; i += 2) {
        const std::string_view flag = argv[i];
        const char* v = argv[i + 1];
        if (flag == "--keys")
            o.keys = std::strtoull(v, nullptr, 10);
        else if (flag == "--prefix")
            o.prefix = v;
        else if (flag == "--value-min")
            o.value_min = std::strtoul(v, nullptr, 10);
        else if (flag == "--value-max")
            o.value_max = std::strtoul(v, nullptr, 10);
        else if (flag == "--get-ratio")
            o.get_ratio = unsigned(std::atoi(v));
        else if (flag == "--set-ratio")
            o.set_ratio = unsigned(std::atoi(v));
        else if (flag == "--path")
            o.path = v;
        else
            fail("unknown option " + std::string(flag));
    }
    if (o.port <= 0 || o.connections <= 0 || o.seconds <= 0)
        fail("port, connections and seconds must be positive");
    if (o.transport != "epoll" && o.transport != "uring") fail("transport: epoll or uring");
    if (o.protocol != "memcache" && o.protocol != "http") fail("protocol: memcache or http");
    if (o.keys == 0 || o.value_min > o.value_max || o.get_ratio + o.set_ratio == 0)
        fail("keys, value sizes or ratios out of range");
    return o;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 2 && std::string_view(argv[1]) == "--check-uring") {
        Ring ring;
        return 0;
    }
    const Options o = parse(argc, argv);
    Workload w(o);
    // scale.py's 10 000 connections need more descriptors than the default soft limit.
    rlimit files{};
    getrlimit(RLIMIT_NOFILE, &files);
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
    std::vector<Conn> conns(size_t(o.connections));
    for (Conn& c : conns) {
        c.fd = connectTo(o.port);
        c.in.resize(w.replyRoom());
    }
    const auto start = Clock::now();
    const auto end = start + std::chrono::duration_cast<Clock::duration>(
                                 std::chrono::duration<double>(o.seconds));
    const uint64_t done =
        o.transport == "epoll" ? runEpoll(conns, w, end) : runUring(conns, w, end);
    const double secs = std::chrono::duration<double>(Clock::now() - start).count();
    std::printf("requests %llu seconds %.3f\n", static_cast<unsigned long long>(done), secs);
    for (const Conn& c : conns)
        close(c.fd);
}
