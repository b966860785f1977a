// SPDX-License-Identifier: MIT
#include "host_details.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QVBoxLayout>

namespace perflab {

namespace {

QString size_text(uint64_t bytes) {
    return QStringLiteral("%1 GiB (%2 kB)")
        .arg(double(bytes) / double(1ull << 30), 0, 'f', 1)
        .arg(bytes / 1024);
}

QString cpu_text(const HardwareProfile& p) {
    return QStringLiteral("%1\n%2 socket(s), %3 cores, %4 threads, %5 MHz")
        .arg(QString::fromStdString(p.cpu_model))
        .arg(p.sockets)
        .arg(p.cores)
        .arg(p.threads)
        .arg(p.mhz, 0, 'f', 0);
}

QString disks_text(const HardwareProfile& p) {
    QStringList disks;
    for (const auto& d : p.disks)
        disks << QStringLiteral("%1 %2 GiB%3")
                     .arg(QString::fromStdString(d.device))
                     .arg(double(d.size_bytes) / double(1ull << 30), 0, 'f', 1)
                     .arg(d.mount.empty()
                              ? QString()
                              : QStringLiteral(" on ") + QString::fromStdString(d.mount));
    return disks.join(QLatin1Char('\n'));
}

}  // namespace

HostDetails::HostDetails(QWidget* parent)
    : QWidget(parent),
      title_(new QLabel),
      saved_(new QLabel),
      status_(new QLabel),
      profileBox_(new QGroupBox(tr("Hardware profile"))),
      profile_(new QFormLayout(profileBox_)) {
    title_->setObjectName(QStringLiteral("title"));
    QFont big = title_->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    title_->setFont(big);
    saved_->setObjectName(QStringLiteral("saved"));
    saved_->setWordWrap(true);
    saved_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->setObjectName(QStringLiteral("status"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title_);
    layout->addWidget(saved_);
    layout->addWidget(status_);
    layout->addWidget(profileBox_);
    layout->addStretch();
    showHost(nullptr);
}

void HostDetails::showHost(const SavedHost* host) {
    title_->setText(host ? QString::fromStdString(host->name) : tr("No host selected"));
    if (!host) {
        saved_->setText(tr("Add a host to probe it during runs and to see its hardware."));
    } else {
        QStringList lines{QString::fromStdString(host->target),
                          host->key_file.empty()
                              ? tr("key: ssh-agent")
                              : tr("key: %1").arg(QString::fromStdString(host->key_file))};
        if (host->per_core) lines << tr("CPU per core");
        if (!host->notes.empty()) lines << QString::fromStdString(host->notes);
        saved_->setText(lines.join(QLatin1Char('\n')));
    }
    showStatus({}, Tone::info);
    showProfile(nullptr);
}

void HostDetails::showStatus(const QString& text, Tone tone) {
    static const char* const styles[] = {"", "color: #1b5e20", "color: #b35900; font-weight: bold",
                                         "color: #b00020"};
    status_->setStyleSheet(QString::fromLatin1(styles[int(tone)]));
    status_->setText(text);
    status_->setVisible(!text.isEmpty());
}

void HostDetails::showProfile(const HardwareProfile* p) {
    while (profile_->rowCount() > 0)
        profile_->removeRow(0);
    profileBox_->setVisible(p != nullptr);
    if (!p) return;
    auto row = [this](const QString& label, const char* name, const QString& text) {
        auto* value = new QLabel(text);
        value->setObjectName(QString::fromLatin1(name));
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        profile_->addRow(label, value);
    };
    row(tr("Host name"), "profile_hostname", QString::fromStdString(p->hostname));
    row(tr("CPU"), "profile_cpu", cpu_text(*p));
    row(tr("Memory"), "profile_memory", size_text(p->memory_total_bytes));
    row(tr("Swap"), "profile_swap", size_text(p->swap_total_bytes));
    row(tr("OS"), "profile_os",
        QString::fromStdString(p->os_name + " " + p->os_version + ", kernel " + p->kernel));
    if (!p->disks.empty()) row(tr("Disks"), "profile_disks", disks_text(*p));
}

}  // namespace perflab
