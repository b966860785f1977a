// SPDX-License-Identifier: MIT
#include "metatypes.h"

namespace perflab {

void register_metatypes() {
    qRegisterMetaType<IntervalSample>();
    qRegisterMetaType<RunSummary>();
    qRegisterMetaType<ProbeSample>();
    qRegisterMetaType<RunEvent>();
    qRegisterMetaType<RunSpec>();
    qRegisterMetaType<PhaseTotals>();
}

}  // namespace perflab
