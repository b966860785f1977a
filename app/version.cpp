// SPDX-License-Identifier: MIT
#include "version.h"

#include <libmemcached/memcached.h>
#include <libssh/libssh.h>
#include <nghttp2/nghttp2.h>
#include <openssl/crypto.h>
#include <sqlite3.h>

#include <QtGlobal>
#include <boost/version.hpp>
#include <sstream>

#include "build_info.h"

namespace perflab {

std::string version_text() {
    std::ostringstream out;
    out << "perflab " << PERFLAB_VERSION << '\n'
        << "commit " << PERFLAB_GIT_COMMIT << '\n'
        << "build " << PERFLAB_BUILD_TYPE << '\n'
        << "Qt " << qVersion() << '\n'
        << "Boost " << BOOST_VERSION / 100000 << '.' << BOOST_VERSION / 100 % 1000 << '.'
        << BOOST_VERSION % 100 << '\n'
        << "libssh " << ssh_version(0) << '\n'
        << "SQLite " << sqlite3_libversion() << '\n'
        << "nghttp2 " << nghttp2_version(0)->version_str << '\n'
        << "OpenSSL " << OpenSSL_version(OPENSSL_VERSION_STRING) << '\n'
        << "libmemcached " << memcached_lib_version();
    return out.str();
}

}  // namespace perflab
