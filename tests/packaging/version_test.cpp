// SPDX-License-Identifier: MIT
// `perflab --version`: what a bug report needs, checked against what the build was given.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <stdexcept>
#include <string>

#include "process.h"

namespace perflab::test {
namespace {

TEST(Version, NamesTheProjectVersionCommitBuildTypeAndLibraries) {
    const auto r = run({PERFLAB_BINARY, "--version"});
    ASSERT_EQ(r.code, 0) << r.err;
    // The version project() declares, as CMake handed it to this test.
    EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "perflab " EXPECTED_VERSION) << r.out;
    EXPECT_NE(r.out.find("\nbuild " EXPECTED_BUILD_TYPE "\n"), std::string::npos) << r.out;
    for (const char* library :
         {"Qt", "Boost", "libssh", "SQLite", "nghttp2", "OpenSSL", "libmemcached"})
        EXPECT_TRUE(
            std::regex_search(r.out, std::regex(std::string("\n") + library + " [0-9]+\\.[0-9]+")))
            << library << " has no version in\n"
            << r.out;
}

// Built from a git checkout, the commit is the one checked out (this test runs after the
// build that read it); from an unpacked tarball, "unknown".
TEST(Version, CommitIsTheCheckedOutOne) {
    // Without git the build could not read a commit either.
    Output git, toplevel;
    try {
        git = run({"git", "-C", PERFLAB_SOURCE_DIR, "rev-parse", "--short", "HEAD"});
        toplevel = run({"git", "-C", PERFLAB_SOURCE_DIR, "rev-parse", "--show-toplevel"});
    } catch (const std::runtime_error&) {
    }
    const auto line = [](const std::string& out) { return out.substr(0, out.find('\n')); };
    // A tarball unpacked inside another repository is not that repository's commit.
    const bool own_checkout = git.code == 0 && toplevel.code == 0 &&
                              std::filesystem::canonical(line(toplevel.out)) ==
                                  std::filesystem::canonical(PERFLAB_SOURCE_DIR);
    const std::string want = own_checkout ? line(git.out) : "unknown";
    const auto r = run({PERFLAB_BINARY, "--version"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("\ncommit " + want + "\n"), std::string::npos)
        << "want commit " << want << " (a commit made since perflab was built needs a build)\n"
        << r.out;
}

TEST(Version, IsListedInHelp) {
    const auto r = run({PERFLAB_BINARY, "--help"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("--version"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace perflab::test
