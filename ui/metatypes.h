// SPDX-License-Identifier: MIT
#pragma once

// The run model's value types as Qt metatypes, so whole results cross threads in queued
// signals. Include this, not the model headers, in files that pass them through signals.
#include <QMetaType>

#include "model/probe_sample.h"
#include "model/sample.h"
#include "model/spec.h"
#include "model/summary.h"

Q_DECLARE_METATYPE(perflab::IntervalSample)
Q_DECLARE_METATYPE(perflab::RunSummary)
Q_DECLARE_METATYPE(perflab::ProbeSample)
Q_DECLARE_METATYPE(perflab::RunEvent)
Q_DECLARE_METATYPE(perflab::RunSpec)
Q_DECLARE_METATYPE(perflab::PhaseTotals)

namespace perflab {

// Once, before the first queued connection carries one of these (idempotent).
void register_metatypes();

}  // namespace perflab
