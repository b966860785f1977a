// SPDX-License-Identifier: MIT
#include "nginx_server.h"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace perflab::test {

std::string nginx_config(const std::string& dir, uint16_t port, const NginxOptions& options) {
    const bool tls = options.tls;
    // Debian 12's nginx 1.22 turns HTTP/2 on per listen socket.
    const std::string listen_flags =
        std::string(tls ? " ssl" : "") + (options.http2 ? " http2" : "");
    std::ostringstream c;
    // Workers run as root when the tests do: a TempDir is not readable by "nobody".
    if (geteuid() == 0) c << "user root;\n";
    c << "worker_processes 1;\ndaemon off;\n"
      << "pid " << dir << "/nginx.pid;\n"
      << "error_log " << dir << "/error.log;\n"
      << "events { worker_connections 4096; }\n"
      << "http {\n"
      << "  log_format counted '$connection $status $uri $server_protocol';\n"
      << "  access_log " << dir << "/access.log counted;\n";
    for (const char* temp : {"client_body", "proxy", "fastcgi", "uwsgi", "scgi"})
        c << "  " << temp << "_temp_path " << dir << "/tmp/" << temp << ";\n";
    // /limited.bin: the static file behind a 400 r/s limit, excess queued up to 100 then
    // refused (503), the way a rate-limited service behaves.
    c << "  limit_req_zone $binary_remote_addr zone=limited:1m rate=400r/s;\n";
    c << "  keepalive_requests " << options.keepalive_requests << ";\n"
      << "  keepalive_timeout " << options.keepalive_timeout_ms << "ms;\n"
      << "  server {\n"
      << "    listen 127.0.0.1:" << port << listen_flags << ";\n";
    for (const auto& address : options.also_on)
        c << "    listen " << address << ":" << port << listen_flags << ";\n";
    if (tls)
        c << "    ssl_certificate " << dir << "/cert.pem;\n"
          << "    ssl_certificate_key " << dir << "/key.pem;\n";
    c << "    root " << dir << "/www;\n"
      << "    location = /ok { return 200; }\n"
      // For prometheus-nginx-exporter; its own requests stay out of the counted log.
      << "    location = /stub_status { stub_status; access_log off; }\n"
      << "    location = /limited.bin { limit_req zone=limited burst=100; "
      << "alias " << dir << "/www/static.bin; }\n"
      << "  }\n}\n";
    return c.str();
}

NginxServer::NginxServer(bool tls, int keepalive_timeout_ms, std::vector<std::string> also_on)
    : NginxServer(NginxOptions{tls, false, keepalive_timeout_ms, 1'000'000, std::move(also_on)}) {}

NginxServer::NginxServer(const NginxOptions& options) : port_(free_port()), tls_(options.tls) {
    const bool tls = options.tls;
    mkdir(dir_.file("tmp").c_str(), 0755);
    mkdir(dir_.file("www").c_str(), 0755);
    dir_.write("www/static.bin", std::string(kStaticBytes, 'x'));
    if (tls) {
        const Output cert =
            run({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                 "/CN=127.0.0.1", "-keyout", dir_.file("key.pem"), "-out", dir_.file("cert.pem")});
        if (cert.code != 0) throw std::runtime_error("openssl req failed: " + cert.err);
    }
    dir_.write("nginx.conf", nginx_config(dir_.path(), port_, options));
    process_ = Process(
        {"nginx", "-p", dir_.path(), "-e", dir_.file("error.log"), "-c", dir_.file("nginx.conf")},
        dir_.file("stdout.log"), dir_.file("stderr.log"));
    if (!wait_for_port(port_))
        throw std::runtime_error("nginx did not start: " + read_file(dir_.file("error.log")) +
                                 read_file(dir_.file("stderr.log")));
}

NginxServer::~NginxServer() {
    stop();
}

std::string NginxServer::url(const std::string& path) const {
    return url_on("127.0.0.1", path);
}

std::string NginxServer::url_on(const std::string& address, const std::string& path) const {
    return (tls_ ? "https://" : "http://") + address + ":" + std::to_string(port_) + path;
}

uint64_t NginxServer::requests() const {
    std::ifstream in(dir_.file("access.log"));
    uint64_t lines = 0;
    std::string line;
    while (std::getline(in, line))
        ++lines;
    return lines;
}

uint64_t NginxServer::wait_for_requests(uint64_t n, int timeout_ms) const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    uint64_t seen = requests();
    while (seen < n && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        seen = requests();
    }
    return seen;
}

uint64_t NginxServer::connections() const {
    std::ifstream in(dir_.file("access.log"));
    std::set<std::string> ids;
    for (std::string line; std::getline(in, line);)
        ids.insert(line.substr(0, line.find(' ')));
    return ids.size();
}

uint64_t NginxServer::requests_to(const std::string& path) const {
    std::ifstream in(dir_.file("access.log"));
    uint64_t n = 0;
    std::string id, status, uri, protocol;
    while (in >> id >> status >> uri >> protocol)
        n += uri == path;
    return n;
}

uint64_t NginxServer::requests_over(const std::string& protocol) const {
    std::ifstream in(dir_.file("access.log"));
    uint64_t n = 0;
    std::string id, status, uri, used;
    while (in >> id >> status >> uri >> used)
        n += used == protocol;
    return n;
}

void NginxServer::stop() {
    process_.stop();
}

}  // namespace perflab::test
