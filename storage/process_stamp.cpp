// SPDX-License-Identifier: MIT
#include "process_stamp.h"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

namespace perflab {

namespace {

// 0 when the process does not exist or is a zombie (killed, not yet reaped).
int64_t start_time(int64_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!std::getline(in, text)) return 0;
    // The command name (field 2) may hold spaces and parentheses: count from its end.
    const auto close = text.rfind(')');
    if (close == std::string::npos) return 0;
    std::istringstream fields(text.substr(close + 2));
    std::string field;
    if (!(fields >> field) || field == "Z" || field == "X") return 0;
    for (int i = 4; i <= 22 && fields >> field; ++i)
        if (i == 22) return std::stoll(field);
    return 0;
}

}  // namespace

ProcessStamp current_process() {
    const int64_t pid = getpid();
    return {pid, start_time(pid)};
}

bool is_alive(const ProcessStamp& stamp) {
    if (stamp.pid <= 0) return false;
    const int64_t start = start_time(stamp.pid);
    return start != 0 && start == stamp.start;
}

}  // namespace perflab
