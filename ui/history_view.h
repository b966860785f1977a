// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QWidget>
#include <string>
#include <vector>

#include "run_store.h"

class QComboBox;
class QLabel;
class QLayout;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;

namespace perflab {

class RunListModel;
class RunNotesEditor;
class StoreQuery;
class StoredRunView;

// Every stored run with its key figures, newest first, filtered by name, kind and tag as
// `perflab runs --name --kind --tag` filters. A run opens in a page of its own (its charts
// and report, Back returns); the selected run's notes and tags are edited beside the list;
// selected runs are deleted after a confirmation, handed over for comparison, or written to a
// bundle. Every store query runs off the GUI thread.
class HistoryView : public QWidget {
    Q_OBJECT
  public:
    explicit HistoryView(std::string dbPath, QWidget* parent = nullptr);
    ~HistoryView() override;

    RunFilter filter() const;
    QList<qint64> selectedRunIds() const;
    void selectRuns(const QList<qint64>& ids);
    // Lists the runs again and selects run `id` among them, in view and current (a run that
    // just ended, one just imported).
    void selectRun(qint64 id);

    RunListModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    QLineEdit* nameFilter() const { return name_; }
    QComboBox* kindFilter() const { return kind_; }
    QComboBox* tagFilter() const { return tag_; }
    QPushButton* openButton() const { return open_; }
    QPushButton* compareButton() const { return compare_; }
    QPushButton* deleteButton() const { return delete_; }
    QPushButton* baselineButton() const { return baseline_; }
    QPushButton* compareBaselineButton() const { return compareBaseline_; }
    QPushButton* bundleButton() const { return bundle_; }
    RunNotesEditor* notesEditor() const { return editor_; }
    StoredRunView* runView() const { return runView_; }
    bool showingRun() const;

  public slots:
    // Lists the runs again, e.g. when a run has ended.
    void refresh();
    void openRun(qint64 id);
    void showList();
    void deleteSelected();
    // The selected run becomes the baseline of its name (tagged "baseline").
    void markBaseline();
    // The selected run against the baseline of its name.
    void compareWithBaseline();
    // The selected runs in one bundle at `path` (run_bundle.h), for another history; the
    // button asks where.
    void exportBundle(const QString& path);

  signals:
    void compareRequested(const QList<qint64>& ids);
    // The list shows the store's answer to the last refresh.
    void refreshed();
    // An edit or delete has landed in the store.
    void runsChanged();
    void failed(const QString& message);
    void bundleExported(const QString& path, int runs);

  protected:
    // Asks the user (QMessageBox) before anything is deleted; tests override it.
    virtual bool confirmDelete(const QString& question);

  private:
    struct Listing {
        std::vector<RunInfo> runs;
        std::vector<std::string> tags;  // of every run, for the tag filter
    };
    QLayout* setupFilters();
    QWidget* setupList(QWidget* page);
    const RunInfo* findRun(qint64 id) const;
    void openAt(const QModelIndex& index);
    void showListing(Listing listing);
    void updateTagChoices(const std::vector<std::string>& tags);
    void selectionChanged();
    void saveNotes(qint64 id, const QString& notes, const QStringList& tags);
    void edited();
    void showError(const QString& message);

    std::string dbPath_;
    StoreQuery* listQuery_;
    StoreQuery* editQuery_;
    RunListModel* model_;
    QSortFilterProxyModel* sorted_;
    QStackedWidget* pages_;
    QLineEdit* name_;
    QComboBox* kind_;
    QComboBox* tag_;
    QTableView* table_;
    QLabel* status_;
    QPushButton* open_;
    QPushButton* compare_;
    QPushButton* delete_;
    QPushButton* baseline_;
    QPushButton* compareBaseline_;
    QPushButton* bundle_;
    RunNotesEditor* editor_;
    StoredRunView* runView_;
    bool reloadEditor_ = false;   // after a save: show the notes and tags as stored
    qint64 selectOnRefresh_ = 0;  // selectRun's, once the list shows it
};

}  // namespace perflab
