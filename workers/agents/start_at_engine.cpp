// SPDX-License-Identifier: MIT
#include "start_at_engine.h"

#include <thread>

namespace perflab {

void StartAtEngine::start() {
    std::this_thread::sleep_until(at_);
}

}  // namespace perflab
