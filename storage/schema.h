// SPDX-License-Identifier: MIT
#pragma once

#include "sqlite.h"

namespace perflab {

// PRAGMA application_id of a PerfLab database ("PfLb").
constexpr int kApplicationId = 0x50664C62;

int pragma_int(Connection& db, const char* pragma);

// Brings the schema to kSchemaVersion, one step per version, in one transaction that first
// re-reads the version (another PerfLab may have migrated meanwhile).
void migrate(Connection& db);

}  // namespace perflab
