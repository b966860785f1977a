// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>

#include "process.h"

namespace perflab::test {

// A data directory of the test's own for the guard's life (XDG_DATA_HOME): the runs it makes
// land in an empty database, not in the one other tests share.
class OwnDataHome {
  public:
    OwnDataHome() : old_(qgetenv("XDG_DATA_HOME")) {
        qputenv("XDG_DATA_HOME", QByteArray::fromStdString(dir_.path()));
    }
    ~OwnDataHome() { qputenv("XDG_DATA_HOME", old_); }
    OwnDataHome(const OwnDataHome&) = delete;
    OwnDataHome& operator=(const OwnDataHome&) = delete;

    const TempDir& dir() const { return dir_; }

  private:
    TempDir dir_;
    QByteArray old_;
};

}  // namespace perflab::test
