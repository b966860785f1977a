// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace perflab {

// Who writes a run: a pid and that process's start time, so a pid the kernel has reused for
// another process is not taken for the writer.
struct ProcessStamp {
    int64_t pid = 0;
    int64_t start = 0;  // /proc/PID/stat field 22, clock ticks since boot
};

ProcessStamp current_process();
bool is_alive(const ProcessStamp& stamp);

}  // namespace perflab
