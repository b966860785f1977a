// SPDX-License-Identifier: MIT
#include "http_test_server.h"

#include <boost/asio/buffers_iterator.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <cctype>
#include <string>
#include <thread>

#include "tcp_table.h"

namespace perflab::test {

namespace asio = boost::asio;
using Tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using boost::system::error_code;

namespace {

constexpr std::string_view kError =
    "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 5\r\n\r\nerror";
constexpr std::string_view kGarbage = "SPAM SPAM SPAM\r\n\r\n";

// The kernel's count of connections made to this port (established, accepted or not): the
// server's own accept count trails it, as one thread accepts between reads.
uint64_t established_to(uint16_t port) {
    uint64_t n = 0;
    for (const TcpRow& row : tcp_table())
        n += row.state == 1 && row.local_port == port;
    return n;
}

int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
        .count();
}

}  // namespace

class HttpTestServer::Impl {
  public:
    Impl(HttpTestServer& owner, uint16_t port)
        : owner_(owner), acceptor_(io_, Tcp::endpoint(asio::ip::make_address("127.0.0.1"), port)) {
        accept();
        thread_ = std::thread([this] { io_.run(); });
    }
    ~Impl() {
        io_.stop();
        thread_.join();
    }
    uint16_t port() const { return acceptor_.local_endpoint().port(); }

  private:
    struct Session : std::enable_shared_from_this<Session> {
        Session(Impl& impl, Tcp::socket s, uint64_t id)
            : impl(impl), id(id), socket(std::move(s)), timer(impl.io_) {}

        void read() {
            asio::async_read_until(socket, buffer, "\r\n\r\n",
                                   [self = shared_from_this()](error_code ec, size_t n) {
                                       if (!ec) self->on_request(n);
                                   });
        }

        void on_request(size_t n) {
            const auto begin = asio::buffers_begin(buffer.data());
            head.assign(begin, begin + std::ptrdiff_t(n));
            buffer.consume(n);
            const size_t length = content_length(head);
            if (buffer.size() >= length) return on_body(length);
            asio::async_read(socket, buffer, asio::transfer_exactly(length - buffer.size()),
                             [self = shared_from_this(), length](error_code ec, size_t) {
                                 if (!ec) self->on_body(length);
                             });
        }

        static size_t content_length(const std::string& head) {
            std::string lower(head);
            for (auto& c : lower)
                c = char(std::tolower(static_cast<unsigned char>(c)));
            const size_t at = lower.find("\r\ncontent-length:");
            return at == std::string::npos ? 0 : std::stoul(lower.substr(at + 17));
        }

        void on_body(size_t length) {
            const auto begin = asio::buffers_begin(buffer.data());
            std::string body(begin, begin + std::ptrdiff_t(length));
            buffer.consume(length);
            {
                std::lock_guard lock(impl.owner_.head_mutex_);
                impl.owner_.last_head_ = head;
                impl.owner_.received_.push_back({head, std::move(body)});
                if (impl.owner_.responder_)
                    ok = impl.owner_.responder_(id, impl.owner_.received_.back());
                else
                    ok = "HTTP/1.1 200 OK\r\nContent-Length: " +
                         std::to_string(impl.owner_.reply_body_.size()) + "\r\n\r\n" +
                         impl.owner_.reply_body_;
            }
            {
                std::lock_guard lock(impl.owner_.log_mutex_);
                exchange = impl.owner_.log_.size();
                impl.owner_.log_.push_back({Clock::now(), Clock::time_point::max()});
            }
            if (impl.owner_.requests_.fetch_add(1) == 0)
                impl.owner_.accepted_first_.store(established_to(impl.port()));
            switch (impl.owner_.mode_.load()) {
                case Mode::reset:
                    socket.set_option(asio::socket_base::linger(true, 0));
                    socket.close();
                    return;
                case Mode::close_early:
                    socket.close();
                    return;
                case Mode::garbage:
                    return reply(kGarbage, true);
                case Mode::error_500:
                    return delayed(kError, last_on_connection());
                case Mode::ok:
                    return delayed(ok, last_on_connection());
                case Mode::ok_then_close:
                    return reply(ok, true);
            }
        }

        // An HTTP/1.0 client (a Prometheus scrape) reads its reply up to the connection's close.
        bool last_on_connection() const {
            const size_t line_end = head.find("\r\n");
            return line_end >= 8 && head.compare(line_end - 8, 8, "HTTP/1.0") == 0;
        }

        void delayed(std::string_view bytes, bool then_close) {
            const int64_t delay_ns = int64_t(impl.owner_.delay_ms_.load()) * 1'000'000;
            const int64_t at = std::max(now_ns() + delay_ns, impl.owner_.stall_until_ns_.load());
            if (at <= now_ns()) return reply(bytes, then_close);
            timer.expires_at(Clock::time_point(std::chrono::nanoseconds(at)));
            timer.async_wait([self = shared_from_this(), bytes, then_close](error_code ec) {
                if (!ec) self->reply(bytes, then_close);
            });
        }

        // Stamped and logged as the write begins: a client may read the reply (and its test
        // the log) before this thread runs again after writing it, and a stamp taken then
        // would come after the client's.
        void reply(std::string_view bytes, bool then_close) {
            logged_reply(Clock::now());
            asio::async_write(socket, asio::buffer(bytes.data(), bytes.size()),
                              [self = shared_from_this(), then_close](error_code ec, size_t) {
                                  if (ec) return;
                                  if (then_close)
                                      self->socket.close();
                                  else
                                      self->read();
                              });
        }

        void logged_reply(Clock::time_point at) {
            std::lock_guard lock(impl.owner_.log_mutex_);
            impl.owner_.log_[exchange].replied = at;
        }

        Impl& impl;
        const uint64_t id;
        std::string head;
        std::string ok;  // this request's "200 OK" reply
        size_t exchange = 0;
        Tcp::socket socket;
        asio::steady_timer timer;
        asio::streambuf buffer;
    };

    void accept() {
        acceptor_.async_accept([this](error_code ec, Tcp::socket socket) {
            if (ec) return;
            const uint64_t id = owner_.accepted_.fetch_add(1);
            socket.set_option(Tcp::no_delay(true));
            std::make_shared<Session>(*this, std::move(socket), id)->read();
            accept();
        });
    }

    HttpTestServer& owner_;
    asio::io_context io_{1};
    Tcp::acceptor acceptor_;
    std::thread thread_;
};

HttpTestServer::HttpTestServer(uint16_t port) : impl_(std::make_unique<Impl>(*this, port)) {
    port_ = impl_->port();
}

HttpTestServer::~HttpTestServer() = default;

std::string HttpTestServer::url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
}

void HttpTestServer::stall_for(std::chrono::milliseconds d) {
    stall_until_ns_.store(now_ns() +
                          std::chrono::duration_cast<std::chrono::nanoseconds>(d).count());
}

void HttpTestServer::set_reply_body(std::string body) {
    std::lock_guard lock(head_mutex_);
    reply_body_ = std::move(body);
}

void HttpTestServer::set_responder(Responder responder) {
    std::lock_guard lock(head_mutex_);
    responder_ = std::move(responder);
}

std::vector<HttpTestServer::Request> HttpTestServer::received() const {
    std::lock_guard lock(head_mutex_);
    return received_;
}

std::vector<HttpTestServer::Exchange> HttpTestServer::exchanges() const {
    std::lock_guard lock(log_mutex_);
    return log_;
}

std::string HttpTestServer::last_request_head() const {
    std::lock_guard lock(head_mutex_);
    return last_head_;
}

void HttpTestServer::kill() {
    impl_.reset();
}

}  // namespace perflab::test
