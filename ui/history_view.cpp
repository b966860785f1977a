// SPDX-License-Identifier: MIT
#include "history_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <set>
#include <utility>

#include "file_dialogs.h"
#include "run_bundle.h"
#include "run_list_model.h"
#include "run_notes_editor.h"
#include "store_query.h"
#include "stored_run_view.h"

namespace perflab {

namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

HistoryView::HistoryView(std::string dbPath, QWidget* parent)
    : QWidget(parent),
      dbPath_(std::move(dbPath)),
      listQuery_(new StoreQuery(dbPath_, this)),
      editQuery_(new StoreQuery(dbPath_, this)),
      model_(new RunListModel(this)),
      sorted_(new QSortFilterProxyModel(this)),
      pages_(new QStackedWidget(this)),
      name_(new QLineEdit(this)),
      kind_(new QComboBox(this)),
      tag_(new QComboBox(this)),
      table_(new QTableView(this)),
      status_(new QLabel(this)),
      open_(new QPushButton(tr("Open"), this)),
      compare_(new QPushButton(tr("Compare"), this)),
      delete_(new QPushButton(tr("Delete…"), this)),
      baseline_(new QPushButton(tr("Mark as baseline"), this)),
      compareBaseline_(new QPushButton(tr("Compare with baseline"), this)),
      bundle_(new QPushButton(tr("Export bundle…"), this)),
      editor_(new RunNotesEditor(this)),
      runView_(new StoredRunView(dbPath_, this)) {
    auto* list = new QWidget(pages_);
    auto* layout = new QVBoxLayout(list);
    layout->addLayout(setupFilters());
    layout->addWidget(status_);
    layout->addWidget(setupList(list), 1);
    pages_->addWidget(list);
    pages_->addWidget(runView_);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(pages_);
    connect(runView_, &StoredRunView::backRequested, this, &HistoryView::showList);
    connect(editor_, &RunNotesEditor::saveRequested, this, &HistoryView::saveNotes);
    selectionChanged();
    refresh();
}

HistoryView::~HistoryView() = default;

QLayout* HistoryView::setupFilters() {
    name_->setPlaceholderText(tr("Filter by name"));
    name_->setClearButtonEnabled(true);
    kind_->addItem(tr("All kinds"), QString());
    kind_->addItem(QStringLiteral("cache"), QStringLiteral("cache"));
    kind_->addItem(QStringLiteral("http"), QStringLiteral("http"));
    tag_->addItem(tr("All tags"), QString());
    tag_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* row = new QHBoxLayout;
    row->addWidget(name_, 1);
    row->addWidget(kind_);
    row->addWidget(tag_);
    connect(name_, &QLineEdit::textChanged, this, &HistoryView::refresh);
    connect(kind_, &QComboBox::currentIndexChanged, this, &HistoryView::refresh);
    connect(tag_, &QComboBox::currentIndexChanged, this, &HistoryView::refresh);
    return row;
}

QWidget* HistoryView::setupList(QWidget* page) {
    sorted_->setSourceModel(model_);
    sorted_->setSortRole(Qt::UserRole);
    table_->setModel(sorted_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSortingEnabled(true);
    table_->sortByColumn(RunListModel::Started, Qt::DescendingOrder);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setAlternatingRowColors(true);
    compare_->setToolTip(tr("Select two runs or more"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(open_);
    buttons->addWidget(compare_);
    buttons->addWidget(baseline_);
    buttons->addWidget(compareBaseline_);
    buttons->addStretch(1);
    buttons->addWidget(bundle_);
    buttons->addWidget(delete_);
    auto* left = new QWidget(page);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(table_, 1);
    leftLayout->addLayout(buttons);
    auto* split = new QSplitter(Qt::Horizontal, page);
    split->addWidget(left);
    split->addWidget(editor_);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    status_->setWordWrap(true);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &HistoryView::selectionChanged);
    connect(table_, &QTableView::doubleClicked, this, &HistoryView::openAt);
    for (const auto key : {Qt::Key_Return, Qt::Key_Enter}) {
        auto* enter = new QShortcut(QKeySequence(key), table_);
        enter->setContext(Qt::WidgetShortcut);
        connect(enter, &QShortcut::activated, this, [this] { openAt(table_->currentIndex()); });
    }
    connect(open_, &QPushButton::clicked, this, [this] {
        if (const QList<qint64> ids = selectedRunIds(); ids.size() == 1) openRun(ids.front());
    });
    connect(compare_, &QPushButton::clicked, this,
            [this] { emit compareRequested(selectedRunIds()); });
    connect(delete_, &QPushButton::clicked, this, &HistoryView::deleteSelected);
    baseline_->setToolTip(tr("The run the runs of its name are compared with"));
    connect(baseline_, &QPushButton::clicked, this, &HistoryView::markBaseline);
    connect(compareBaseline_, &QPushButton::clicked, this, &HistoryView::compareWithBaseline);
    bundle_->setToolTip(tr("The selected runs in one .perflab file another PerfLab imports"));
    connect(bundle_, &QPushButton::clicked, this, [this] {
        const QList<qint64> ids = selectedRunIds();
        if (ids.empty()) return;
        const QString path = ask_save_path(
            this, tr("Export bundle"), tr("PerfLab bundle (*.perflab)"),
            QStringLiteral("bundle/dir"),
            ids.size() == 1 ? tr("run-%1.perflab").arg(ids.front()) : tr("runs.perflab"));
        if (!path.isEmpty()) exportBundle(path);
    });
    auto* del = new QShortcut(QKeySequence::Delete, table_);
    connect(del, &QShortcut::activated, this, &HistoryView::deleteSelected);
    return split;
}

RunFilter HistoryView::filter() const {
    return {kind_->currentData().toString().toStdString(),
            tag_->currentData().toString().toStdString(), name_->text().trimmed().toStdString()};
}

void HistoryView::refresh() {
    listQuery_->submit(
        [filter = filter()](RunStore& store) {
            Listing listing;
            listing.runs = store.list(filter);
            std::set<std::string> tags;
            for (const auto& run : store.list())
                tags.insert(run.tags.begin(), run.tags.end());
            listing.tags.assign(tags.begin(), tags.end());
            return listing;
        },
        [this](Listing listing) { showListing(std::move(listing)); },
        [this](const QString& message) { showError(message); });
}

void HistoryView::showListing(Listing listing) {
    const QList<qint64> selected =
        selectOnRefresh_ ? QList<qint64>{selectOnRefresh_} : selectedRunIds();
    model_->setRuns(std::move(listing.runs));
    updateTagChoices(listing.tags);
    table_->resizeColumnsToContents();
    selectRuns(selected);
    if (std::exchange(selectOnRefresh_, 0)) {
        const QModelIndexList rows = table_->selectionModel()->selectedRows();
        if (!rows.isEmpty()) {
            table_->selectionModel()->setCurrentIndex(rows.front(), QItemSelectionModel::NoUpdate);
            table_->scrollTo(rows.front());
        }
    }
    selectionChanged();
    const RunFilter f = filter();
    const bool filtered = !f.kind.empty() || !f.tag.empty() || !f.name.empty();
    status_->setStyleSheet(QString());
    status_->setText(model_->rowCount() > 0 ? QString()
                     : filtered             ? tr("No stored run matches the filter.")
                                            : tr("No stored runs yet: every run you start is "
                                                             "saved here."));
    emit refreshed();
}

// The choice stays while the list refreshes, even when its last run lost the tag.
void HistoryView::updateTagChoices(const std::vector<std::string>& tags) {
    const QString current = tag_->currentData().toString();
    const QSignalBlocker block(tag_);
    while (tag_->count() > 1)
        tag_->removeItem(1);
    for (const auto& t : tags)
        tag_->addItem(QString::fromStdString(t), QString::fromStdString(t));
    if (!current.isEmpty() && tag_->findData(current) < 0) tag_->addItem(current, current);
    tag_->setCurrentIndex(std::max(0, tag_->findData(current)));
}

QList<qint64> HistoryView::selectedRunIds() const {
    QModelIndexList rows = table_->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    QList<qint64> ids;
    for (const QModelIndex& index : rows)
        ids << model_->run(sorted_->mapToSource(index).row()).id;
    return ids;
}

void HistoryView::selectRuns(const QList<qint64>& ids) {
    QItemSelection selection;
    for (int row = 0; row < model_->rowCount(); ++row)
        if (ids.contains(model_->run(row).id)) {
            const QModelIndex index = sorted_->mapFromSource(model_->index(row, 0));
            selection.select(index, index);
        }
    table_->selectionModel()->select(
        selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void HistoryView::selectRun(qint64 id) {
    selectOnRefresh_ = id;
    refresh();
}

void HistoryView::selectionChanged() {
    const QList<qint64> ids = selectedRunIds();
    open_->setEnabled(ids.size() == 1);
    compare_->setEnabled(ids.size() >= 2);
    delete_->setEnabled(!ids.empty());
    baseline_->setEnabled(ids.size() == 1);
    compareBaseline_->setEnabled(ids.size() == 1);
    bundle_->setEnabled(!ids.empty());
    const qint64 id = ids.size() == 1 ? ids.front() : 0;
    // A refresh keeps the selection: what the user is typing stays.
    if (id == editor_->runId() && !reloadEditor_) return;
    reloadEditor_ = false;
    editor_->setRun(findRun(id));
}

const RunInfo* HistoryView::findRun(qint64 id) const {
    for (const auto& run : model_->runs())
        if (run.id == id) return &run;
    return nullptr;
}

bool HistoryView::showingRun() const {
    return pages_->currentWidget() == runView_;
}

void HistoryView::openAt(const QModelIndex& index) {
    if (index.isValid()) openRun(model_->run(sorted_->mapToSource(index).row()).id);
}

void HistoryView::openRun(qint64 id) {
    runView_->open(id);
    pages_->setCurrentWidget(runView_);
}

void HistoryView::showList() {
    pages_->setCurrentIndex(0);
}

void HistoryView::deleteSelected() {
    const QList<qint64> ids = selectedRunIds();
    if (ids.empty()) return;
    const RunInfo* run = findRun(ids.front());
    const QString question =
        ids.size() == 1 && run
            ? tr("Delete run %1 (%2) with everything stored about it? This cannot be undone.")
                  .arg(run->id)
                  .arg(QString::fromStdString(run->name))
            : tr("Delete %1 runs with everything stored about them? This cannot be undone.")
                  .arg(ids.size());
    if (!confirmDelete(question)) return;
    editQuery_->submit(
        [ids = std::vector<int64_t>(ids.begin(), ids.end())](RunStore& store) {
            for (int64_t id : ids)
                store.remove(id);
            return ids.size();
        },
        [this](size_t) { edited(); },
        [this](const QString& message) {
            showError(message);
            refresh();
        });
}

bool HistoryView::confirmDelete(const QString& question) {
    return QMessageBox::question(this, tr("Delete runs"), question,
                                 QMessageBox::Yes | QMessageBox::Cancel,
                                 QMessageBox::Cancel) == QMessageBox::Yes;
}

void HistoryView::saveNotes(qint64 id, const QString& notes, const QStringList& tags) {
    std::vector<std::string> wanted;
    for (const QString& t : tags)
        wanted.push_back(t.toStdString());
    editQuery_->submit(
        [id, notes = notes.toStdString(), wanted](RunStore& store) {
            const RunInfo old = store.info(id);
            if (old.notes != notes) store.set_notes(id, notes);
            for (const auto& t : old.tags)
                if (!contains(wanted, t)) store.remove_tag(id, t);
            for (const auto& t : wanted)
                if (!contains(old.tags, t)) store.add_tag(id, t);
            return id;
        },
        [this](qint64) {
            reloadEditor_ = true;
            edited();
        },
        [this](const QString& message) { showError(message); });
}

void HistoryView::markBaseline() {
    const QList<qint64> ids = selectedRunIds();
    if (ids.size() != 1) return;
    editQuery_->submit(
        [id = ids.front()](RunStore& store) {
            store.set_baseline(id);
            return id;
        },
        [this](qint64) {
            reloadEditor_ = true;
            edited();
        },
        [this](const QString& message) { showError(message); });
}

void HistoryView::compareWithBaseline() {
    const QList<qint64> ids = selectedRunIds();
    if (ids.size() != 1) return;
    editQuery_->submit(
        [id = ids.front()](RunStore& store) {
            const std::string name = store.info(id).name;
            const auto base = store.baseline_of(name);
            if (!base)
                throw StoreError("no baseline for runs named \"" + name +
                                 "\": select one and choose Mark as baseline");
            return *base;
        },
        [this, id = ids.front()](qint64 base) {
            if (base == id) return showError(tr("run %1 is its name's baseline").arg(id));
            emit compareRequested({base, id});
        },
        [this](const QString& message) { showError(message); });
}

void HistoryView::exportBundle(const QString& path) {
    const QList<qint64> ids = selectedRunIds();
    if (ids.empty()) return;
    editQuery_->submit(
        [ids = std::vector<int64_t>(ids.begin(), ids.end()),
         file = path.toStdString()](RunStore& store) {
            export_bundle(store.path(), ids, file);
            return int(ids.size());
        },
        [this, path](int runs) {
            status_->setStyleSheet(QString());
            status_->setText(tr("%n run(s) written to %1", nullptr, runs).arg(path));
            emit bundleExported(path, runs);
        },
        [this](const QString& message) { showError(message); });
}

void HistoryView::edited() {
    emit runsChanged();
    refresh();
}

void HistoryView::showError(const QString& message) {
    status_->setStyleSheet(QStringLiteral("color: #b22222"));
    status_->setText(message);
    emit failed(message);
}

}  // namespace perflab
