// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include "host_book.h"
#include "remote/hardware_profile.h"

class QFormLayout;
class QLabel;

namespace perflab {

// The selected saved host: what is saved, how its last connection test went, and the
// hardware profile that test read.
class HostDetails : public QWidget {
    Q_OBJECT
  public:
    enum class Tone { info, ok, warning, error };

    explicit HostDetails(QWidget* parent = nullptr);

    void showHost(const SavedHost* host);  // nullptr: nothing selected
    void showStatus(const QString& text, Tone tone);
    void showProfile(const HardwareProfile* profile);  // nullptr: not read yet

  private:
    QLabel* title_;
    QLabel* saved_;
    QLabel* status_;
    QWidget* profileBox_;
    QFormLayout* profile_;
};

}  // namespace perflab
