// SPDX-License-Identifier: MIT
// A fuzz target's driver in the ordinary build, where libFuzzer is not linked: runs every
// input given (files, or every file of a directory), then mutations of them for --seconds
// (default 3) or --runs (default 200000), whichever ends first. It fails only when the target
// does: a crash, an abort or an exception the target let through, its input written to
// fuzz-crash-input first so the libFuzzer build can replay it. Timing is printed, never judged.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_target.h"
#include "smoke_mutator.h"

namespace {

namespace fs = std::filesystem;

constexpr const char* kCrashFile = "fuzz-crash-input";
const std::string* current = nullptr;  // the input being run, for the crash handler
void (*previous[NSIG])(int);           // the handlers before ours: a sanitizer's reports

void save_current() {
    const int fd = ::open(kCrashFile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return;
    for (size_t done = 0; done < current->size();) {
        const ssize_t n = ::write(fd, current->data() + done, current->size() - done);
        if (n <= 0) break;
        done += size_t(n);
    }
    ::close(fd);
}

// Only async-signal-safe calls: the target's state is unknown here.
void on_crash(int sig) {
    if (current) save_current();
    constexpr char kMessage[] =
        "fuzz smoke: the target crashed; its input is in fuzz-crash-input\n";
    [[maybe_unused]] const ssize_t n = ::write(2, kMessage, sizeof kMessage - 1);
    std::signal(sig, previous[sig]);
    std::raise(sig);
}

void run(const std::string& input) {
    current = &input;
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
    current = nullptr;
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// The files named and those of the directories named, each directory's in name order.
std::vector<std::string> corpus_of(const std::vector<fs::path>& paths) {
    std::vector<std::string> corpus;
    for (const auto& path : paths) {
        std::vector<fs::path> files;
        if (fs::is_directory(path)) {
            for (const auto& entry : fs::directory_iterator(path))
                if (entry.is_regular_file()) files.push_back(entry.path());
            std::sort(files.begin(), files.end());
        } else {
            files.push_back(path);
        }
        for (const auto& file : files)
            corpus.push_back(read_file(file));
    }
    return corpus;
}

}  // namespace

int main(int argc, char** argv) {
    double seconds = 3;
    long runs = 200'000;
    std::vector<fs::path> paths;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind("--seconds=", 0) == 0)
            seconds = std::stod(arg.substr(10));
        else if (arg.rfind("--runs=", 0) == 0)
            runs = std::stol(arg.substr(7));
        else
            paths.emplace_back(arg);
    }
    for (const int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL})
        previous[sig] = std::signal(sig, on_crash);

    const auto start = std::chrono::steady_clock::now();
    const std::vector<std::string> corpus = corpus_of(paths);
    long done = 0;
    try {
        for (const auto& input : corpus)
            run(input);
        perflab::fuzz::Mutator mutator(corpus);
        const auto until = start + std::chrono::duration<double>(seconds);
        for (; done < runs && std::chrono::steady_clock::now() < until; ++done)
            run(mutator.next());
    } catch (const std::exception& e) {
        if (current) save_current();
        std::fprintf(stderr, "fuzz smoke: the target let through an exception: %s\n", e.what());
        std::fprintf(stderr, "its input is in %s\n", kCrashFile);
        return 1;
    }
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    std::printf("%s: %zu corpus inputs, %ld mutated inputs run in %.1f s\n",
                fs::path(argv[0]).filename().c_str(), corpus.size(), done, took.count());
    return 0;
}
