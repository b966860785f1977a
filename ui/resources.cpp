// SPDX-License-Identifier: MIT
#include "resources.h"

#include <QtGlobal>

// Q_INIT_RESOURCE declares a function and must not be used inside a namespace.
static void init_perflab_qrc() {
    Q_INIT_RESOURCE(perflab);
}

namespace perflab {

void init_resources() {
    init_perflab_qrc();
}

}  // namespace perflab
