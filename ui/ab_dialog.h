// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QList>
#include <QProcess>
#include <QString>
#include <string>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QSpinBox;

namespace perflab {

// Run → Compare two specs (A/B)…: `perflab ab A B --repeat N` in a process of its own (the
// CLI's experiment, one implementation), its progress as a bar, and the two series it stored
// handed on for Compare when it ends.
class AbDialog : public QDialog {
    Q_OBJECT
  public:
    // `perflab`: the binary that runs the experiment (this program, unless a test says).
    AbDialog(std::string dbPath, QString perflab, QWidget* parent = nullptr);
    ~AbDialog() override;

    void setSpecs(const QString& a, const QString& b);
    void setRepeat(int n);
    QProgressBar* progress() const { return progress_; }
    QString status() const;

  public slots:
    void start();

  signals:
    // The experiment ended and stored both series: A's runs, then B's.
    void experimentFinished(QList<qint64> a, QList<qint64> b);

  protected:
    void reject() override;

  private:
    void readProgress();
    void onFinished(int code, QProcess::ExitStatus status);
    void setRunning(bool running);

    std::string dbPath_;
    QString perflab_;
    QLineEdit* specA_;
    QLineEdit* specB_;
    QSpinBox* repeat_;
    QProgressBar* progress_;
    QLabel* status_;
    QPlainTextEdit* log_;
    QDialogButtonBox* buttons_;
    QProcess* process_ = nullptr;
    QByteArray pending_;  // stderr not yet a whole line
};

}  // namespace perflab
