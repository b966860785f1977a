// SPDX-License-Identifier: MIT
#include "h2_connection.h"

#include <nghttp2/nghttp2.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/write.hpp>
#include <cstring>
#include <string_view>

#include "response_check.h"

namespace perflab {

using boost::system::error_code;

// A request as HTTP/2 header fields, pointing into text PerfLab rendered as HTTP/1.1 (a
// static target's own copy, or a slot's buffer), and its body there.
struct H2Request {
    std::string text;  // a static target's request; a templated one lives in its slot
    std::vector<nghttp2_nv> fields;
    std::string_view body;
};

namespace {

constexpr size_t kReadBuffer = 16 * 1024;
constexpr size_t kWriteBatch = 16 * 1024;
// As h2load's defaults: windows wide enough that flow control never paces a response.
constexpr int32_t kWindow = (1 << 30) - 1;
// A refused request is sent again, on another connection, up to this many times: connections
// opened together reach a server's request limit together, so the next one may be closing too.
constexpr int kMaxResends = 8;
constexpr const char* kNoH2 = "the server did not select HTTP/2 (ALPN \"h2\")";

uint8_t* bytes(const char* s) {
    // nghttp2 takes non-const pointers; with NGHTTP2_NV_FLAG_NO_COPY_* it only reads them.
    return reinterpret_cast<uint8_t*>(const_cast<char*>(s));
}

nghttp2_nv field(const char* name, size_t name_size, const char* value, size_t value_size) {
    return {bytes(name), bytes(value), name_size, value_size,
            NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE};
}

bool hop_by_hop(std::string_view name) {
    return name == "connection" || name == "keep-alive" || name == "proxy-connection" ||
           name == "transfer-encoding" || name == "upgrade";
}

// PerfLab renders every request as HTTP/1.1 (request line, header lines, blank line, body),
// so templates need one renderer: this reads that text back as HTTP/2 fields, lowercasing the
// header names in place (HTTP/2 requires it). The text is PerfLab's own, so it is well formed.
void to_h2(char* text, size_t size, bool tls, H2Request& out) {
    out.fields.clear();
    const std::string_view all(text, size);
    const size_t line_end = all.find("\r\n");
    const size_t method_end = all.find(' ');
    const size_t path_end = all.rfind(' ', line_end);
    out.fields.push_back(field(":method", 7, text, method_end));
    out.fields.push_back(tls ? field(":scheme", 7, "https", 5) : field(":scheme", 7, "http", 4));
    out.fields.push_back(field(":authority", 10, "", 0));
    out.fields.push_back(field(":path", 5, text + method_end + 1, path_end - method_end - 1));
    size_t at = line_end + 2;
    while (at < size) {
        const size_t end = all.find("\r\n", at);
        if (end == std::string_view::npos) {
            at = size;
            break;
        }
        if (end == at) {
            at += 2;
            break;
        }
        const size_t colon = all.find(':', at);
        size_t value = colon + 1;
        while (value < end && (text[value] == ' ' || text[value] == '\t'))
            ++value;
        std::transform(text + at, text + colon, text + at,
                       [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; });
        const std::string_view name(text + at, colon - at);
        if (name == "host")
            out.fields[2] = field(":authority", 10, text + value, end - value);
        else if (!hop_by_hop(name))
            out.fields.push_back(field(text + at, colon - at, text + value, end - value));
        at = end + 2;
    }
    out.body = all.substr(std::min(at, size));
}

// nginx (1.21.4 on) ends the handshake with this alert when no protocol offered is its own.
bool no_common_protocol(const error_code& ec) {
    return ec.category() == asio::error::get_ssl_category() &&
           ERR_GET_REASON(static_cast<unsigned long>(ec.value())) ==
               SSL_R_TLSV1_ALERT_NO_APPLICATION_PROTOCOL;
}

HttpError classify(const error_code& ec) {
    namespace err = asio::error;
    if (ec == err::connection_refused) return HttpError::refused;
    if (ec == err::connection_reset || ec == err::broken_pipe || ec == err::connection_aborted)
        return HttpError::reset;
    if (ec == err::timed_out) return HttpError::timeout;
    if (ec.category() == err::get_ssl_category() ||
        ec.category() == asio::ssl::error::get_stream_category())
        return HttpError::tls;
    if (ec == err::eof) return HttpError::eof;
    return HttpError::other;
}

}  // namespace

// One HTTP/2 connection: asio reads and writes around an nghttp2 client session. nghttp2's
// callbacks only note what happened; streams hear of their end after nghttp2 returns, so a
// slot that sends its next request at once never calls into a session from inside it.
class H2Connection {
  public:
    H2Connection(const H2Pool::Context& context, H2Pool& pool, HandlerMemory& memory)
        : ctx_(context), pool_(pool), memory_(memory) {
        read_.resize(kReadBuffer);
        write_.reserve(kWriteBatch + kReadBuffer);
        attached_.reserve(size_t(ctx_.plan.spec.max_streams));
        ended_.reserve(size_t(ctx_.plan.spec.max_streams));
    }
    ~H2Connection() { drop(); }

    // Closed, with no operation of its socket still pending: free to open again.
    bool reusable() const { return state_ == State::closed && ops_ == 0; }
    bool live() const { return state_ != State::closed; }
    bool takes(size_t origin) const { return live() && !goaway_ && origin_ == origin; }
    size_t load() const { return attached_.size(); }
    size_t limit() const {
        size_t n = size_t(ctx_.plan.spec.max_streams);
        if (session_)
            n = std::min<size_t>(n, nghttp2_session_get_remote_settings(
                                        session_, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS));
        return n;
    }

    void open(size_t origin) {
        origin_ = origin;
        state_ = State::connecting;
        goaway_ = false;
        deadline_ = HttpClock::now() + std::chrono::milliseconds(ctx_.plan.spec.connect_timeout_ms);
        if (ctx_.plan.origins[origin].tls) {
            plain_.reset();
            tls_.emplace(ctx_.io, *ctx_.tls);
        } else {
            tls_.reset();
            plain_.emplace(ctx_.io);
        }
        ++ops_;
        asio::async_connect(socket(), ctx_.endpoints[origin],
                            [this](const error_code& ec, const Tcp::endpoint&) {
                                --ops_;
                                on_connect(ec);
                            });
    }

    void attach(H2Stream& s) {
        s.conn_ = this;
        s.attached_slot_ = attached_.size();
        s.stream_id_ = 0;
        attached_.push_back(&s);
        if (state_ != State::open) return;
        if (s.preconnecting_) {
            // Never from inside the worker's own preconnect loop, which counts the slot after.
            detach(s);
            asio::post(ctx_.io, [&s] { s.on_ready(); });
            return;
        }
        submit(s);
        // From this connection's own end_streams, the request waits for the write that follows,
        // with the others the read ended: one write for them all, not one each.
        if (!ending_) flush();
    }

    // A stream given up (its timeout): the server is told to stop it, and it hears no more.
    void cancel(H2Stream& s) {
        const int32_t id = s.stream_id_;
        detach(s);
        if (!session_ || id <= 0) return;
        nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, id, NGHTTP2_CANCEL);
        flush();
    }

    void expire_if_due(HttpClock::time_point now) {
        if (state_ == State::connecting && now >= deadline_)
            fail(HttpError::connect_timeout, nullptr);
    }

    // Its streams, if any, fail as cancelled.
    void close() { fail(HttpError::cancelled, nullptr); }

  private:
    enum class State { closed, connecting, open };

    TcpSocket& socket() { return tls_ ? tls_->next_layer() : *plain_; }

    void on_connect(const error_code& ec) {
        if (state_ != State::connecting) return;
        if (ec) return fail(classify(ec), nullptr);
        error_code ignored;
        socket().set_option(Tcp::no_delay(true), ignored);
        if (!tls_) return start();
        const Url& url = ctx_.plan.origins[origin_];
        SSL_set_tlsext_host_name(tls_->native_handle(), url.host.c_str());
        if (ctx_.plan.spec.tls_verify)
            tls_->set_verify_callback(asio::ssl::host_name_verification(url.host));
        ++ops_;
        tls_->async_handshake(asio::ssl::stream_base::client, [this](const error_code& e) {
            --ops_;
            on_handshake(e);
        });
    }

    void on_handshake(const error_code& ec) {
        if (state_ != State::connecting) return;
        if (ec) return fail(HttpError::tls, no_common_protocol(ec) ? kNoH2 : nullptr);
        const unsigned char* protocol = nullptr;
        unsigned size = 0;
        SSL_get0_alpn_selected(tls_->native_handle(), &protocol, &size);
        if (size != 2 || std::memcmp(protocol, "h2", 2) != 0) return fail(HttpError::tls, kNoH2);
        start();
    }

    void start() {
        nghttp2_session_client_new(&session_, callbacks(), this);
        const nghttp2_settings_entry settings[] = {
            {NGHTTP2_SETTINGS_ENABLE_PUSH, 0},
            {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, uint32_t(kWindow)}};
        nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, settings, 2);
        nghttp2_session_set_local_window_size(session_, NGHTTP2_FLAG_NONE, 0, kWindow);
        state_ = State::open;
        ctx_.open_count.fetch_add(1, std::memory_order_relaxed);
        // A copy: flushing may end streams, and a ready slot may start a request, here too.
        const std::vector<H2Stream*> waiting = attached_;
        for (H2Stream* s : waiting)
            if (s->preconnecting_) detach(*s);
        for (H2Stream* s : waiting)
            if (s->conn_ == this) submit(*s);
        read();
        flush();
        for (H2Stream* s : waiting)
            if (s->preconnecting_) s->on_ready();
    }

    void submit(H2Stream& s) {
        const H2Request& r = *s.request_fields_;
        nghttp2_data_provider body{};
        body.read_callback = &H2Connection::read_body;
        s.body_sent_ = 0;
        const int32_t id =
            nghttp2_submit_request(session_, nullptr, r.fields.data(), r.fields.size(),
                                   r.body.empty() ? nullptr : &body, &s);
        s.deadline_ = HttpClock::now() + std::chrono::milliseconds(ctx_.plan.spec.timeout_ms);
        if (id > 0) {
            s.stream_id_ = id;
            return;
        }
        // A session out of stream ids, or one the server sent away: another connection
        // takes the request.
        goaway_ = true;
        ended(s, NGHTTP2_REFUSED_STREAM);
    }

    void detach(H2Stream& s) {
        H2Stream* last = attached_.back();
        attached_[s.attached_slot_] = last;
        last->attached_slot_ = s.attached_slot_;
        attached_.pop_back();
        s.attached_slot_ = SIZE_MAX;
        s.conn_ = nullptr;
        s.stream_id_ = 0;
    }

    // The stream of this id still waiting for its end here, or null.
    H2Stream* stream(int32_t id) const {
        auto* s = static_cast<H2Stream*>(nghttp2_session_get_stream_user_data(session_, id));
        if (s && s->conn_ == this && s->stream_id_ == id) return s;
        for (H2Stream* a : attached_)
            if (a->stream_id_ == id) return a;
        return nullptr;
    }

    void read() {
        ++ops_;
        const auto done = [this](const error_code& ec, size_t n) {
            --ops_;
            on_read(ec, n);
        };
        if (tls_)
            tls_->async_read_some(asio::buffer(read_), InMemory(memory_, done));
        else
            plain_->async_read_some(asio::buffer(read_), InMemory(memory_, done));
    }

    void on_read(const error_code& ec, size_t n) {
        if (state_ != State::open) return;
        if (ec) return fail(classify(ec), nullptr);
        if (nghttp2_session_mem_recv(session_, read_.data(), n) < 0)
            return fail(HttpError::parse, nullptr);
        end_streams();
        // A TLS read hands over one record, and a server writes a response or a few per record:
        // while records already read from the socket wait, the next requests wait with them, so
        // that one write carries them all (one write per response was most of the system time).
        if (!records_waiting()) flush();
        if (state_ == State::open) read();
    }

    bool records_waiting() {
        if (!tls_) return false;
        SSL* ssl = tls_->native_handle();
        return SSL_pending(ssl) > 0 || BIO_ctrl_pending(SSL_get_rbio(ssl)) > 0;
    }

    // Writes what nghttp2 has to send, one write at a time.
    void flush() {
        if (state_ != State::open || writing_) return;
        writing_ = true;
        write_.clear();
        while (write_.size() < kWriteBatch) {
            const uint8_t* data = nullptr;
            const ssize_t n = nghttp2_session_mem_send(session_, &data);
            if (n < 0) {
                writing_ = false;
                return fail(HttpError::other, nullptr);
            }
            if (n == 0) break;
            write_.append(reinterpret_cast<const char*>(data), size_t(n));
        }
        if (write_.empty()) {
            writing_ = false;
        } else {
            ++ops_;
            const auto done = [this](const error_code& ec, size_t) {
                --ops_;
                writing_ = false;
                if (state_ != State::open) return;
                if (ec) return fail(classify(ec), nullptr);
                flush();
            };
            if (tls_)
                asio::async_write(*tls_, asio::buffer(write_), InMemory(memory_, done));
            else
                asio::async_write(*plain_, asio::buffer(write_), InMemory(memory_, done));
        }
        const bool ended = end_streams();
        if (state_ != State::open || writing_) return;
        // Streams nghttp2 ended while sending, whose slots sent their next request meanwhile.
        if (ended && nghttp2_session_want_write(session_)) return flush();
        // After a GOAWAY both sides are done once the last stream ended.
        if (!nghttp2_session_want_read(session_) && !nghttp2_session_want_write(session_))
            fail(HttpError::eof, nullptr);
    }

    // Streams whose end nghttp2 reported, told now that nghttp2 has returned. A stream may
    // send its next request from here (on this connection, too): the list is read by index,
    // and a nested call leaves it to this one.
    // True when it told any.
    bool end_streams() {
        if (ending_) return false;
        ending_ = true;
        const bool any = !ended_.empty();
        for (size_t i = 0; i < ended_.size(); ++i) {
            const auto [s, code] = ended_[i];
            s->on_closed(code);
        }
        ended_.clear();
        ending_ = false;
        if (state_ == State::open && attached_.empty() && (goaway_ || pool_.over_bound())) close();
        return any;
    }

    void ended(H2Stream& s, uint32_t code) {
        detach(s);
        ended_.emplace_back(&s, code);
    }

    // Ends the connection and fails the streams on it: unreached when it never opened.
    void fail(HttpError error, const char* detail) {
        if (state_ == State::closed) return;
        const bool reached = state_ == State::open;
        if (reached) ctx_.open_count.fetch_sub(1, std::memory_order_relaxed);
        state_ = State::closed;
        // A copy: a failed slot may start its next request at once, on a new connection.
        const std::vector<H2Stream*> failed = attached_;
        // Requests still waiting for the write (nghttp2 opens a stream when it sends it) never
        // reached the server: unless the run is ending, they go again elsewhere, as refused
        // streams do. A read's records hold their write back, and a server's GOAWAY and close
        // can be among those records.
        std::vector<bool> unsent(failed.size());
        for (size_t i = 0; reached && error != HttpError::cancelled && i < failed.size(); ++i)
            unsent[i] = failed[i]->stream_id_ > 0 &&
                        !nghttp2_session_find_stream(session_, failed[i]->stream_id_);
        drop();
        for (H2Stream* s : failed)
            detach(*s);
        for (size_t i = 0; i < failed.size(); ++i) {
            if (unsent[i])
                failed[i]->on_closed(NGHTTP2_REFUSED_STREAM);
            else
                failed[i]->on_failed(error, !reached, detail);
        }
    }

    void drop() {
        error_code ignored;
        if (tls_ || plain_) socket().close(ignored);
        if (session_) nghttp2_session_del(session_);
        session_ = nullptr;
    }

    static nghttp2_session_callbacks* callbacks();

    static int on_header(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name,
                         size_t name_size, const uint8_t* value, size_t value_size, uint8_t,
                         void* user) {
        if (frame->hd.type != NGHTTP2_HEADERS || name_size != 7 ||
            std::memcmp(name, ":status", 7) != 0)
            return 0;
        H2Stream* s = static_cast<H2Connection*>(user)->stream(frame->hd.stream_id);
        if (!s) return 0;
        int status = 0;
        for (size_t i = 0; i < value_size && i < 3; ++i)
            status = status * 10 + (value[i] - '0');
        // A 1xx response comes before the final one; the final status stands.
        if (s->status_ < 200) s->status_ = status;
        return 0;
    }

    static int on_data(nghttp2_session*, uint8_t, int32_t id, const uint8_t* data, size_t size,
                       void* user) {
        H2Stream* s = static_cast<H2Connection*>(user)->stream(id);
        if (!s) return 0;
        s->body_bytes_ += size;
        if (s->reader_->active())
            s->reader_->feed(std::string_view(reinterpret_cast<const char*>(data), size));
        return 0;
    }

    static int on_frame(nghttp2_session*, const nghttp2_frame* frame, void* user) {
        if (frame->hd.type == NGHTTP2_GOAWAY) static_cast<H2Connection*>(user)->goaway_ = true;
        return 0;
    }

    static int on_close(nghttp2_session*, int32_t id, uint32_t code, void* user) {
        auto* c = static_cast<H2Connection*>(user);
        if (H2Stream* s = c->stream(id)) c->ended(*s, code);
        return 0;
    }

    // A request nghttp2 could not send (the server's GOAWAY came first): the server never saw
    // it, like a refused stream.
    static int on_not_sent(nghttp2_session*, const nghttp2_frame* frame, int, void* user) {
        auto* c = static_cast<H2Connection*>(user);
        if (frame->hd.type != NGHTTP2_HEADERS) return 0;
        if (H2Stream* s = c->stream(frame->hd.stream_id)) c->ended(*s, NGHTTP2_REFUSED_STREAM);
        return 0;
    }

    static ssize_t read_body(nghttp2_session*, int32_t id, uint8_t* out, size_t size,
                             uint32_t* flags, nghttp2_data_source*, void* user) {
        H2Stream* s = static_cast<H2Connection*>(user)->stream(id);
        if (!s) return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
        const std::string_view body = s->request_fields_->body;
        const size_t n = std::min(size, body.size() - s->body_sent_);
        std::memcpy(out, body.data() + s->body_sent_, n);
        s->body_sent_ += n;
        if (s->body_sent_ == body.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
        return ssize_t(n);
    }

    H2Pool::Context ctx_;
    H2Pool& pool_;
    HandlerMemory& memory_;
    std::optional<TcpSocket> plain_;
    std::optional<asio::ssl::stream<TcpSocket>> tls_;
    nghttp2_session* session_ = nullptr;
    std::vector<uint8_t> read_;
    std::string write_;
    std::vector<H2Stream*> attached_;  // streams on it, sent or waiting for it to open
    std::vector<std::pair<H2Stream*, uint32_t>> ended_;
    size_t origin_ = 0;
    HttpClock::time_point deadline_{};
    State state_ = State::closed;
    int ops_ = 0;          // socket operations pending: the socket is not replaced before they end
    bool goaway_ = false;  // takes no new stream
    bool writing_ = false;
    bool ending_ = false;
};

nghttp2_session_callbacks* H2Connection::callbacks() {
    // Built once; nghttp2 copies them into each session.
    static nghttp2_session_callbacks* const made = [] {
        nghttp2_session_callbacks* cb = nullptr;
        nghttp2_session_callbacks_new(&cb);
        nghttp2_session_callbacks_set_on_header_callback(cb, &H2Connection::on_header);
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, &H2Connection::on_data);
        nghttp2_session_callbacks_set_on_frame_recv_callback(cb, &H2Connection::on_frame);
        nghttp2_session_callbacks_set_on_stream_close_callback(cb, &H2Connection::on_close);
        nghttp2_session_callbacks_set_on_frame_not_send_callback(cb, &H2Connection::on_not_sent);
        return cb;
    }();
    return made;
}

H2Pool::H2Pool(const Context& context) : ctx_(context) {
    for (const PreparedTarget& t : ctx_.plan.targets) {
        if (t.program) {
            static_.push_back(nullptr);
            continue;
        }
        auto r = std::make_unique<H2Request>();
        r->text = t.bytes;
        to_h2(r->text.data(), r->text.size(), ctx_.plan.origins[t.origin].tls, *r);
        static_.push_back(std::move(r));
    }
}

H2Pool::~H2Pool() = default;

void H2Pool::set_bound(int connections) {
    bound_ = std::max(1, connections);
    for (auto& c : conns_)
        if (c->live() && c->load() == 0 && over_bound()) c->close();
}

bool H2Pool::over_bound() const {
    return std::count_if(conns_.begin(), conns_.end(), [](const auto& c) { return c->live(); }) >
           bound_;
}

H2Connection& H2Pool::acquire(size_t origin) {
    H2Connection* least = nullptr;
    int live = 0;
    for (auto& c : conns_) {
        live += c->live();
        if (!c->takes(origin)) continue;
        if (c->load() < c->limit()) return *c;
        if (!least || c->load() < least->load()) least = c.get();
    }
    // At the bound the least loaded takes it; an origin without a connection gets one anyway.
    if (least && live >= bound_) return *least;
    H2Connection* fresh = nullptr;
    for (auto& c : conns_)
        if (c->reusable()) {
            fresh = c.get();
            break;
        }
    if (!fresh) {
        conns_.push_back(std::make_unique<H2Connection>(ctx_, *this, ctx_.memory.emplace_back()));
        fresh = conns_.back().get();
    }
    fresh->open(origin);
    return *fresh;
}

void H2Pool::expire_if_due(HttpClock::time_point now) {
    for (size_t i = 0; i < conns_.size(); ++i)
        conns_[i]->expire_if_due(now);
}

void H2Pool::close_all() {
    for (size_t i = 0; i < conns_.size(); ++i)
        conns_[i]->close();
}

H2Stream::H2Stream(const Context& context, int id)
    : ctx_(context),
      id_(id),
      rendered_(std::make_unique<H2Request>()),
      reader_(std::make_unique<BodyReader>()) {
    request_.reserve(ctx_.plan.max_request_bytes);
    body_.reserve(ctx_.plan.max_request_bytes);
}

H2Stream::~H2Stream() = default;

void H2Stream::send(size_t target, HttpClock::time_point from, HttpClock::time_point now) {
    busy_ = true;
    preconnecting_ = false;
    resends_ = 0;
    target_ = target;
    from_ = from;
    sent_ = now;
    const PreparedTarget& t = ctx_.plan.targets[target];
    origin_ = t.origin;
    if (t.program) {
        to_h2(request_.data(), request_.size(), ctx_.plan.origins[origin_].tls, *rendered_);
        request_fields_ = rendered_.get();
    } else {
        request_fields_ = &ctx_.pool.request(target);
    }
    start();
}

void H2Stream::start() {
    status_ = 0;
    body_bytes_ = 0;
    deadline_ = HttpClock::time_point::max();
    reader_->start(ctx_.plan.targets[target_].check.get());
    ctx_.pool.acquire(origin_).attach(*this);
}

void H2Stream::preconnect(size_t origin) {
    busy_ = preconnecting_ = true;
    origin_ = origin;
    ctx_.pool.acquire(origin).attach(*this);
}

void H2Stream::on_ready() {
    busy_ = preconnecting_ = false;
    ctx_.owner.on_ready(*this);
}

void H2Stream::expire_if_due(HttpClock::time_point now) {
    if (!conn_ || stream_id_ <= 0 || now < deadline_) return;
    conn_->cancel(*this);
    HttpOutcome outcome;
    outcome.error = HttpError::timeout;
    finish(outcome);
}

void H2Stream::on_closed(uint32_t h2_error) {
    // The server did not process it (RFC 9113 8.7): safe to send again, whatever the method.
    if (h2_error == NGHTTP2_REFUSED_STREAM && status_ == 0 && resends_ < kMaxResends) {
        ++resends_;
        return start();
    }
    HttpOutcome outcome;
    if (h2_error != NGHTTP2_NO_ERROR || status_ == 0) {
        outcome.error = HttpError::reset;
    } else {
        outcome.status = status_;
        outcome.body_bytes = body_bytes_;
        if (const auto& check = ctx_.plan.targets[target_].check) {
            outcome.failed_checks = check->failures(status_, *reader_, body_bytes_);
            outcome.status_checked = check->judges_status();
        }
    }
    finish(outcome);
}

void H2Stream::on_failed(HttpError error, bool unreached, const char* detail) {
    if (preconnecting_) return on_ready();
    HttpOutcome outcome;
    outcome.error = error;
    outcome.unreached = unreached;
    outcome.detail = detail;
    finish(outcome);
}

void H2Stream::finish(HttpOutcome& outcome) {
    busy_ = false;
    deadline_ = HttpClock::time_point::max();
    outcome.at = HttpClock::now();
    failures = outcome.error ? failures + 1 : 0;
    ctx_.owner.on_complete(*this, outcome);
}

}  // namespace perflab
