// SPDX-License-Identifier: MIT
#include "spec_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cctype>

#include "command_preview.h"
#include "form_errors.h"
#include "host_book.h"
#include "model/secrets.h"
#include "phase_preview.h"
#include "request_preview.h"
#include "row_table.h"
#include "spec_tables.h"
#include "target_details.h"

namespace perflab {

namespace {

using Type = JsonFields::Type;

const char* const kErrorStyle = "background: #ffcdd2;";

template <class E, int N>
QStringList names() {
    QStringList out;
    for (int i = 0; i < N; ++i)
        out << QString::fromLatin1(to_string(E(i)));
    return out;
}

constexpr int kSummaryLines = 3;    // the error summary's height; more lines scroll in it
constexpr int kSummaryPadding = 6;  // around its lines, inside its border
// The box is coloured; the scroll area in it and its lines let that show through.
const char* const kSummaryErrorStyle =
    "#specErrorBox { background: #f8d7da; border: 1px solid #f1aeb5; } "
    "QScrollArea, QScrollArea > QWidget, QLabel { background: transparent; color: #58151c; }";
const char* const kSummaryValidStyle =
    "#specErrorBox { background: #e8f5e9; border: 1px solid #a5d6a7; } "
    "QScrollArea, QScrollArea > QWidget, QLabel { background: transparent; color: #1b5e20; }";

// Whether `word` stands in `text` as a word of its own: "min 5 > max 3" names min and max.
bool names_word(const std::string& text, const std::string& word) {
    const auto is_word = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    };
    for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
        const size_t end = at + word.size();
        if ((at == 0 || !is_word(text[at - 1])) && (end == text.size() || !is_word(text[end])))
            return true;
    }
    return false;
}

// The seed the previews render with: the spec's, else 0.
uint64_t preview_seed(const nlohmann::json& spec) {
    const auto seed = spec.value("seed", nlohmann::json());
    return seed.is_number_integer() && seed >= 0 ? seed.get<uint64_t>() : 0;
}

// "Add a saved host": a menu of the Hosts tab's SSH hosts, which setSavedHosts fills.
QPushButton* saved_hosts_button(QWidget* parent, const QString& name, const QString& tip) {
    auto* button = new QPushButton(QObject::tr("Add a saved host"), parent);
    button->setObjectName(name);
    button->setToolTip(tip);
    button->setMenu(new QMenu(button));
    button->setEnabled(false);
    return button;
}

}  // namespace

// The fields scroll; the validator's messages above them and Start below them stay in view,
// whatever the window's height.
SpecForm::SpecForm(QWidget* parent) : QWidget(parent) {
    auto* page = new QVBoxLayout(this);
    page->setContentsMargins(0, 0, 0, 0);
    page->addWidget(setupErrors());
    scroll_ = new QScrollArea(this);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    auto* content = new QWidget(scroll_);
    auto* outer = new QVBoxLayout(content);
    setupTemplates(outer);
    auto* columns = new QHBoxLayout;
    auto* left = new QVBoxLayout;
    left->addWidget(setupRunGroup());
    left->addWidget(setupScheduleGroup(), 1);
    left->addWidget(setupObjectivesGroup());
    auto* right = new QVBoxLayout;
    right->addWidget(setupCacheGroup());
    right->addWidget(setupHttpGroup());
    right->addWidget(setupProbesGroup(), 1);
    right->addWidget(setupAgentsGroup());
    columns->addLayout(left, 1);
    columns->addLayout(right, 1);
    outer->addLayout(columns, 1);
    scroll_->setWidget(content);
    page->addWidget(scroll_, 1);
    page->addWidget(setupActions());
    updateKind();
    phases_->addRow({QStringLiteral("10"), {}, {}, {}, QStringLiteral("4")});
    validate();
}

SpecForm::~SpecForm() = default;

template <class W>
W* SpecForm::add(QFormLayout* form, const QString& label, const std::string& path,
                 JsonFields::Type type, W* widget) {
    widget->setObjectName(QString::fromStdString(path));
    fields_.bind(path, widget, type);
    form->addRow(label, widget);
    if constexpr (std::is_base_of_v<QLineEdit, W>)
        connect(widget, &QLineEdit::textChanged, this, &SpecForm::validate);
    else if constexpr (std::is_base_of_v<QPlainTextEdit, W>)
        connect(widget, &QPlainTextEdit::textChanged, this, &SpecForm::validate);
    else if constexpr (std::is_base_of_v<QComboBox, W>)
        connect(widget, &QComboBox::currentTextChanged, this, &SpecForm::validate);
    else
        connect(widget, &QCheckBox::toggled, this, &SpecForm::validate);
    return widget;
}

QWidget* SpecForm::addNumber(QFormLayout* form, const QString& label, const std::string& path,
                             const QString& placeholder) {
    auto* edit = new QLineEdit(this);
    edit->setPlaceholderText(placeholder);
    return add(form, label, path, Type::number, edit);
}

QComboBox* SpecForm::addChoice(QFormLayout* form, const QString& label, const std::string& path,
                               const QStringList& choices) {
    auto* combo = new QComboBox(this);
    combo->addItems(choices);
    return add(form, label, path, Type::choice, combo);
}

void SpecForm::setupTemplates(QLayout* layout) {
    auto* row = new QHBoxLayout;
    auto* combo = new QComboBox(this);
    combo->setObjectName(QStringLiteral("templates"));
    combo->addItem(tr("New from template…"));
    for (const QString& t : templates())
        combo->addItem(QFileInfo(t).completeBaseName(), t);
    connect(combo, &QComboBox::activated, this, [this, combo](int index) {
        if (index <= 0) return;
        QString error;
        loadTemplate(combo->itemData(index).toString(), &error);
        combo->setCurrentIndex(0);
    });
    row->addWidget(combo);
    row->addStretch();
    static_cast<QBoxLayout*>(layout)->addLayout(row);
}

QGroupBox* SpecForm::setupRunGroup() {
    auto* box = new QGroupBox(tr("Run"), this);
    auto* form = new QFormLayout(box);
    add(form, tr("Name"), "name", Type::text, new QLineEdit(this));
    kind_ = addChoice(form, tr("Kind"), "kind", names<RunKind, 2>());
    connect(kind_, &QComboBox::currentTextChanged, this, &SpecForm::updateKind);
    addNumber(form, tr("Tick (ms)"), "tick_ms", QStringLiteral("1000"));
    addNumber(form, tr("Seed"), "seed", tr("empty: drawn when the run starts"));
    auto* tags = add(form, tr("Tags"), "tags", Type::list, new QLineEdit(this));
    tags->setPlaceholderText(tr("comma separated"));
    auto* notes = add(form, tr("Notes"), "notes", Type::text, new QPlainTextEdit(this));
    notes->setMaximumHeight(60);
    return box;
}

QGroupBox* SpecForm::setupScheduleGroup() {
    auto* box = schedule_ = new QGroupBox(tr("Phases"), this);
    auto* layout = new QVBoxLayout(box);
    phases_ = make_phase_table(this);
    phases_->setObjectName(QStringLiteral("phases"));
    preview_ = new PhasePreview(this);
    connect(phases_, &RowTable::changed, this, &SpecForm::validate);
    layout->addWidget(phases_, 1);
    layout->addWidget(preview_, 1);
    return box;
}

QGroupBox* SpecForm::setupObjectivesGroup() {
    auto* box = new QGroupBox(tr("Objectives (SLO) and max-rate search"), this);
    auto* form = new QFormLayout(box);
    addNumber(form, tr("p50 ≤ (ms)"), "slo.latency_ms.p50", {});
    addNumber(form, tr("p99 ≤ (ms)"), "slo.latency_ms.p99", {});
    addNumber(form, tr("p99.9 ≤ (ms)"), "slo.latency_ms.p999", {});
    addNumber(form, tr("max ≤ (ms)"), "slo.latency_ms.max", {});
    addNumber(form, tr("Error rate ≤"), "slo.error_rate", tr("a fraction: 0.01 is 1%"));
    addNumber(form, tr("Success ≥"), "slo.min_success", tr("a fraction: 0.99 is 99%"));
    addNumber(form, tr("Hit rate ≥"), "slo.min_hit_rate", tr("cache runs; a fraction"));
    addNumber(form, tr("Throughput ≥ planned ×"), "slo.min_throughput_ratio",
              tr("open model: 0.98"));
    addNumber(form, tr("Full GCs ≤"), "slo.max_full_gcs", tr("needs a jvm probe"));
    addNumber(form, tr("Live window (s)"), "slo.window_s", QStringLiteral("10"));
    add(form, tr("Stop at a breach"), "slo.abort", Type::flag, new QCheckBox(this));
    searchMode_ = new QCheckBox(tr("Find the max rate that meets them (replaces the phases)"), box);
    searchMode_->setObjectName(QStringLiteral("searchMode"));
    connect(searchMode_, &QCheckBox::toggled, this, &SpecForm::updateMode);
    form->addRow(searchMode_);
    searchFields_ = new QWidget(box);
    auto* search = new QFormLayout(searchFields_);
    search->setContentsMargins(0, 0, 0, 0);
    addNumber(search, tr("From rate (/s)"), "search.rate_from", QStringLiteral("100"));
    addNumber(search, tr("Up to rate (/s)"), "search.rate_to", QStringLiteral("20000"));
    addNumber(search, tr("Step (s)"), "search.step_s", QStringLiteral("20"));
    addNumber(search, tr("Precision"), "search.precision", QStringLiteral("0.05"));
    addNumber(search, tr("Warm-up (s)"), "search.warmup_s", QStringLiteral("0"));
    addNumber(search, tr("Connections"), "search.concurrency", tr("0: the engine's bound"));
    addNumber(search, tr("Settle between steps (s)"), "search.settle_s",
              tr("0: none; idle until the old gen stops falling"));
    addNumber(search, tr("Confirmation hold (s)"), "search.confirm_s",
              tr("empty: 3 × step; 0: none"));
    form->addRow(searchFields_);
    searchFields_->hide();
    return box;
}

void SpecForm::updateMode() {
    const bool search = searchMode_->isChecked();
    searchFields_->setVisible(search);
    schedule_->setVisible(!search);
    validate();
}

QGroupBox* SpecForm::setupCacheGroup() {
    cache_ = new QGroupBox(tr("Cache (memcached, Redis)"), this);
    auto* form = new QFormLayout(cache_);
    auto* servers = add(form, tr("Servers"), "cache.servers", Type::list, new QLineEdit(this));
    servers->setPlaceholderText(QStringLiteral("127.0.0.1:11211, …"));
    addChoice(form, tr("Protocol"), "cache.protocol", names<CacheProtocol, 4>());
    addChoice(form, tr("Workload"), "cache.workload", names<CacheWorkload, 4>());
    addNumber(form, tr("Get ratio"), "cache.get_ratio", QStringLiteral("10"));
    addNumber(form, tr("Set ratio"), "cache.set_ratio", QStringLiteral("1"));
    commands_ = make_command_table(this);
    commands_->setObjectName(QStringLiteral("cache.commands"));
    commands_->setToolTip(tr("Redis: commands of your choice, each an op of its own"));
    connect(commands_, &RowTable::changed, this, &SpecForm::validate);
    form->addRow(tr("Commands (Redis)"), commands_);
    commandPreview_ = new CommandPreview(this);
    form->addRow(tr("Their ops"), commandPreview_);
    addNumber(form, tr("Multi-get"), "cache.multiget", tr("keys per get; 1: one at a time"));
    addNumber(form, tr("Keys"), "cache.keys.count", QStringLiteral("1000000"));
    auto* prefix =
        add(form, tr("Key prefix"), "cache.keys.prefix", Type::text, new QLineEdit(this));
    prefix->setPlaceholderText(QStringLiteral("key:"));
    addChoice(form, tr("Key distribution"), "cache.keys.distribution", names<KeyDistribution, 4>());
    addNumber(form, tr("Zipf s"), "cache.keys.zipf_s", QStringLiteral("0.99"));
    addNumber(form, tr("Gaussian mean"), "cache.keys.mean", tr("gaussian: the middle key"));
    addNumber(form, tr("Gaussian stddev"), "cache.keys.stddev",
              tr("gaussian: a sixth of the keys"));
    addNumber(form, tr("Value min (B)"), "cache.value_size.min", QStringLiteral("128"));
    addNumber(form, tr("Value max (B)"), "cache.value_size.max", QStringLiteral("10240"));
    addChoice(form, tr("Value bytes"), "cache.value_size.bytes",
              {QStringLiteral("compressible"), QStringLiteral("random")});
    auto* replay =
        add(form, tr("Replay file"), "cache.replay.file", Type::text, new QLineEdit(this));
    replay->setPlaceholderText(tr("lines of [TIMESTAMP] get KEY / set KEY SIZE"));
    addNumber(form, tr("Replay speed"), "cache.replay.speed", tr("1: as recorded; 2; max"));
    addNumber(form, tr("TTL (s)"), "cache.ttl_s", tr("0: never expires"));
    add(form, tr("Prefill"), "cache.prefill", Type::flag, new QCheckBox(this));
    addChoice(form, tr("Driver"), "cache.driver", names<CacheDriver, 2>());
    addNumber(form, tr("Threads"), "cache.threads", tr("async driver; 0: one per core"));
    addNumber(form, tr("Pipeline"), "cache.pipeline", tr("async driver: requests in flight"));
    addNumber(form, tr("Timeout (ms)"), "cache.timeout_ms", QStringLiteral("1000"));
    setupRedisFields(form);
    return cache_;
}

// What a "redis" connection says before its first op, and TLS. Kept by json() only with
// protocol redis; TLS only while its box is ticked, the files' fields then its settings.
void SpecForm::setupRedisFields(QFormLayout* form) {
    add(form, tr("Redis user"), "cache.redis.user", Type::text, new QLineEdit(this))
        ->setPlaceholderText(tr("default"));
    add(form, tr("Redis password"), "cache.redis.password", Type::text, new QLineEdit(this))
        ->setPlaceholderText(QStringLiteral("${REDIS_PASSWORD}"));
    addNumber(form, tr("Redis database"), "cache.redis.db", QStringLiteral("0"));
    addNumber(form, tr("RESP version"), "cache.redis.hello", tr("3 if the server has it, else 2"));
    add(form, tr("Redis Cluster"), "cache.redis.cluster", Type::flag, new QCheckBox(this));
    redisTls_ = new QCheckBox(tr("TLS"), this);
    redisTls_->setObjectName(QStringLiteral("cache.redis.tls"));
    form->addRow(tr("Redis over"), redisTls_);
    add(form, tr("TLS CA file"), "cache.redis.tls.ca", Type::text, new QLineEdit(this))
        ->setPlaceholderText(tr("the system's CAs"));
    add(form, tr("TLS client certificate"), "cache.redis.tls.cert", Type::text,
        new QLineEdit(this));
    add(form, tr("TLS client key"), "cache.redis.tls.key", Type::text, new QLineEdit(this));
    add(form, tr("TLS server name"), "cache.redis.tls.server_name", Type::text, new QLineEdit(this))
        ->setPlaceholderText(tr("the server's host as given"));
    redisTlsVerify_ = new QCheckBox(tr("Verify the server's certificate"), this);
    redisTlsVerify_->setObjectName(QStringLiteral("cache.redis.tls.verify"));
    redisTlsVerify_->setChecked(true);
    form->addRow(QString(), redisTlsVerify_);
    for (QCheckBox* box : {redisTls_, redisTlsVerify_})
        connect(box, &QCheckBox::toggled, this, &SpecForm::validate);
}

// The fields write every key they have (a flag false, the TLS files without TLS): what a
// memcached run or a plain Redis connection has no use for goes.
void SpecForm::trimRedis(nlohmann::json& cache) const {
    const auto redis = cache.find("redis");
    if (redis == cache.end()) return;
    if (cache.value("protocol", "") != "redis") {
        cache.erase(redis);
        return;
    }
    if (!redis->value("cluster", false)) redis->erase("cluster");
    if (redisTls_->isChecked()) {
        auto& tls = (*redis)["tls"];
        if (!tls.is_object()) tls = nlohmann::json::object();
        if (!redisTlsVerify_->isChecked()) tls["verify"] = false;
        if (tls.empty()) tls = true;
    } else {
        redis->erase("tls");
    }
    if (redis->empty()) cache.erase(redis);
}

QGroupBox* SpecForm::setupHttpGroup() {
    http_ = new QGroupBox(tr("HTTP"), this);
    auto* form = new QFormLayout(http_);
    targets_ = make_target_table(this);
    targets_->setObjectName(QStringLiteral("http.targets"));
    connect(targets_, &RowTable::changed, this, &SpecForm::validate);
    form->addRow(tr("Targets"), targets_);
    targetDetails_ = new TargetDetails(this);
    connect(targetDetails_, &TargetDetails::changed, this, &SpecForm::storeTargetDetails);
    connect(targets_->table(), &QTableWidget::currentCellChanged, this, &SpecForm::showTarget);
    form->addRow(tr("Selected target"), targetDetails_);
    requestPreview_ = new RequestPreview(this);
    form->addRow(tr("Its first requests"), requestPreview_);
    session_ = make_session_table(this);
    session_->setObjectName(QStringLiteral("http.session"));
    session_->setToolTip(
        tr("Each connection of a closed-model phase is a user sending these "
           "steps in order; empty: targets drawn by weight"));
    connect(session_, &RowTable::changed, this, &SpecForm::validate);
    form->addRow(tr("Session steps"), session_);
    addNumber(form, tr("Threads"), "http.threads", QStringLiteral("2"));
    addNumber(form, tr("Max connections"), "http.max_connections", QStringLiteral("10000"));
    addNumber(form, tr("Timeout (ms)"), "http.timeout_ms", QStringLiteral("30000"));
    addNumber(form, tr("Connect timeout (ms)"), "http.connect_timeout_ms", QStringLiteral("5000"));
    add(form, tr("Keep-alive"), "http.keepalive", Type::flag, new QCheckBox(this))
        ->setChecked(true);
    add(form, tr("Verify TLS"), "http.tls_verify", Type::flag, new QCheckBox(this))
        ->setChecked(true);
    add(form, tr("HTTP/2"), "http.http2", Type::flag, new QCheckBox(this))
        ->setToolTip(tr("TLS with ALPN h2, or h2c for http:// URLs; a closed phase's "
                        "connections are then its concurrent streams"));
    addNumber(form, tr("Streams per connection"), "http.max_streams", tr("HTTP/2: 100; 1..1000"));
    return http_;
}

QGroupBox* SpecForm::setupProbesGroup() {
    auto* box = new QGroupBox(tr("Hosts to probe"), this);
    auto* layout = new QVBoxLayout(box);
    probes_ = make_probe_table(this);
    probes_->setObjectName(QStringLiteral("probes"));
    connect(probes_, &RowTable::changed, this, &SpecForm::validate);
    layout->addWidget(probes_);
    savedHosts_ = saved_hosts_button(box, QStringLiteral("savedHosts"),
                                     tr("The SSH hosts saved in the Hosts tab"));
    layout->addWidget(savedHosts_, 0, Qt::AlignLeft);
    return box;
}

// Load from other machines: without a row, this machine sends all of it.
QGroupBox* SpecForm::setupAgentsGroup() {
    auto* box = new QGroupBox(tr("Agents (load from other machines)"), this);
    auto* layout = new QVBoxLayout(box);
    agents_ = make_agent_table(this);
    agents_->setObjectName(QStringLiteral("agents"));
    connect(agents_, &RowTable::changed, this, &SpecForm::validate);
    layout->addWidget(agents_);
    auto* row = new QHBoxLayout;
    savedAgents_ = saved_hosts_button(box, QStringLiteral("savedAgents"),
                                      tr("An SSH host saved in the Hosts tab, as an agent"));
    row->addWidget(savedAgents_);
    stopOnAgentLoss_ = new QCheckBox(tr("Stop the run when an agent is lost"), box);
    stopOnAgentLoss_->setObjectName(QStringLiteral("stopOnAgentLoss"));
    connect(stopOnAgentLoss_, &QCheckBox::toggled, this, &SpecForm::validate);
    row->addWidget(stopOnAgentLoss_);
    row->addStretch(1);
    layout->addLayout(row);
    return box;
}

void SpecForm::setSavedHosts(const std::vector<SavedHost>& hosts) {
    QMenu* menu = savedHosts_->menu();
    menu->clear();
    QMenu* agents = savedAgents_->menu();
    agents->clear();
    for (const SavedHost& host : hosts) {
        // Named as the Hosts tab names it; where it is, beside.
        const QString text = QStringLiteral("%1 (%2)").arg(QString::fromStdString(host.name),
                                                           QString::fromStdString(host.target));
        const ProbeSpec probe = probe_spec(host);
        menu->addAction(text, this, [this, probe] { addProbe(probe); });
        agents->addAction(text, this, [this, probe] { addAgent(probe); });
    }
    savedHosts_->setEnabled(!hosts.empty());
    savedAgents_->setEnabled(!hosts.empty());
}

void SpecForm::addAgent(const ProbeSpec& host) {
    nlohmann::json agents = agents_->toJson();
    nlohmann::json a = {{"host", host.target}};
    if (!host.key.empty()) a["key"] = host.key;
    agents.push_back(std::move(a));
    agents_->setJson(agents);
    validate();
}

void SpecForm::addProbe(const ProbeSpec& probe) {
    nlohmann::json probes = probes_->toJson();
    nlohmann::json p = {{"ssh", probe.target}};
    if (!probe.key.empty()) p["key"] = probe.key;
    if (probe.per_core) p["per_core"] = true;
    probes.push_back(std::move(p));
    probes_->setJson(probes);
    validate();
}

// Always there and always as high: shown and hidden, or growing with its lines, it moved every
// field under the pointer as the user typed, and typed values landed in the wrong fields.
QWidget* SpecForm::setupErrors() {
    errorBox_ = new QFrame(this);
    errorBox_->setObjectName(QStringLiteral("specErrorBox"));
    errorBox_->setStyleSheet(QString::fromLatin1(kSummaryErrorStyle));
    auto* layout = new QVBoxLayout(errorBox_);
    layout->setContentsMargins(kSummaryPadding, kSummaryPadding, kSummaryPadding, kSummaryPadding);
    // Lines past the box's scroll in it, cut at its padding rather than drawn over it.
    auto* lines = new QScrollArea(errorBox_);
    lines->setFrameShape(QFrame::NoFrame);
    lines->setWidgetResizable(true);
    lines->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    errors_ = new QLabel(lines);
    errors_->setObjectName(QStringLiteral("specErrors"));
    errors_->setWordWrap(true);
    errors_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    errors_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    lines->setWidget(errors_);
    lines->setFixedHeight(errors_->fontMetrics().lineSpacing() * kSummaryLines);
    layout->addWidget(lines);
    errorBox_->setFixedHeight(lines->height() + 2 * (kSummaryPadding + 1));  // and the border
    return errorBox_;
}

QWidget* SpecForm::setupActions() {
    auto* box = new QWidget(this);
    auto* row = new QHBoxLayout(box);
    start_ = new QPushButton(tr("Start run"), box);
    start_->setObjectName(QStringLiteral("startButton"));
    start_->setDefault(true);
    connect(start_, &QPushButton::clicked, this, [this] {
        if (spec_) emit startRequested(*spec_);
    });
    row->addStretch(1);
    row->addWidget(start_);
    return box;
}

void SpecForm::updateKind() {
    const bool cache = kind_->currentText() == QLatin1String(to_string(RunKind::cache));
    cache_->setVisible(cache);
    http_->setVisible(!cache);
    validate();
}

nlohmann::json SpecForm::json() const {
    nlohmann::json j = nlohmann::json::object();
    const std::string kind = kind_->currentText().toStdString();
    std::vector<std::string> sections = {kind};
    if (searchMode_->isChecked()) sections.push_back("search");
    fields_.write(j, sections);
    // An slo only once a limit is set: the window and abort alone check nothing.
    nlohmann::json withSlo = nlohmann::json::object();
    fields_.write(withSlo, {"slo"});
    if (const auto it = withSlo.find("slo"); it != withSlo.end()) {
        nlohmann::json slo = *it;
        const bool limits = std::any_of(slo.items().begin(), slo.items().end(), [](const auto& e) {
            return e.key() != "abort" && e.key() != "window_s";
        });
        if (limits) j["slo"] = std::move(slo);
    }
    if (!searchMode_->isChecked())
        j["phases"] = phases_->toJson();
    else if (!j.contains("search"))
        j["search"] = nlohmann::json::object();  // so its required fields are named
    if (kind == "cache") trimRedis(j["cache"]);
    // Redis commands replace the workload, whose choice always has a value.
    if (const auto commands = commands_->toJson(); kind == "cache" && !commands.empty()) {
        j["cache"]["commands"] = commands;
        j["cache"].erase("workload");
    }
    if (kind == "http") {
        j["http"]["targets"] = targets_->toJson();
        if (const auto steps = session_->toJson(); !steps.empty()) j["http"]["session"] = steps;
    }
    if (const auto probes = probes_->toJson(); !probes.empty()) j["probes"] = probes;
    if (const auto agents = agents_->toJson(); !agents.empty()) {
        j["agents"] = agents;
        if (stopOnAgentLoss_->isChecked()) j["on_agent_loss"] = "stop";
    }
    return j;
}

void SpecForm::setJson(const nlohmann::json& spec) {
    filePath_.clear();
    const SpecResult parsed = parse_spec(spec);
    const nlohmann::json j = parsed ? to_json(*parsed.spec) : spec;
    filling_ = true;
    fields_.read(j);
    phases_->setJson(j.value("phases", nlohmann::json::array()));
    commands_->setJson(
        j.value("cache", nlohmann::json::object()).value("commands", nlohmann::json::array()));
    const nlohmann::json http = j.value("http", nlohmann::json::object());
    targets_->setJson(http.value("targets", nlohmann::json::array()));
    session_->setJson(http.value("session", nlohmann::json::array()));
    probes_->setJson(j.value("probes", nlohmann::json::array()));
    agents_->setJson(j.value("agents", nlohmann::json::array()));
    stopOnAgentLoss_->setChecked(j.value("on_agent_loss", "") == "stop");
    const nlohmann::json tls = j.value("cache", nlohmann::json::object())
                                   .value("redis", nlohmann::json::object())
                                   .value("tls", nlohmann::json(false));
    redisTls_->setChecked(tls.is_object() || tls == true);
    redisTlsVerify_->setChecked(!tls.is_object() || tls.value("verify", true));
    searchMode_->setChecked(j.contains("search"));
    showTarget();
    filling_ = false;
    updateMode();
    updateKind();
    // A spec read from a file or the last session may be wrong far down the form.
    revealFirstError();
}

void SpecForm::validate() {
    if (filling_ || !start_) return;
    const nlohmann::json j = json();
    preview_->show(j.value("phases", nlohmann::json::array()));
    SpecResult result = parse_spec(j);
    const bool was = spec_.has_value();
    spec_ = std::move(result.spec);
    showErrors(result.errors);
    updateRequestPreview(j);
    commandPreview_->preview(spec_ && spec_->cache ? &*spec_->cache : nullptr, preview_seed(j));
    start_->setEnabled(spec_.has_value());
    if (was != spec_.has_value()) emit validityChanged(spec_.has_value());
}

void SpecForm::clearErrors() {
    for (QWidget* w : fields_.widgets()) {
        w->setStyleSheet(QString());
        w->setToolTip(QString());
    }
    for (RowTable* t : {phases_, commands_, targets_, session_, probes_, agents_})
        t->clearErrors();
    targetDetails_->clearErrors();
}

void SpecForm::showErrors(const std::vector<SpecError>& errors) {
    clearErrors();
    errorList_ = errors;
    QStringList lines;
    const std::vector<std::string> lists = fields_.paths(Type::list);
    for (const SpecError& e : errors) {
        const QString message = form_error_text(e, lists);
        lines << message;
        int row = 0;
        std::string rest;
        if (table_path(e.path, "phases", &row, &rest))
            phases_->markError(row, rest, message);
        else if (table_path(e.path, "cache.commands", &row, &rest))
            commands_->markError(row, rest, message);
        else if (table_path(e.path, "http.targets", &row, &rest))
            targets_->markError(row, rest, message);
        else if (table_path(e.path, "http.session", &row, &rest))
            session_->markError(row, rest, message);
        else if (table_path(e.path, "probes", &row, &rest))
            probes_->markError(row, rest, message);
        else if (table_path(e.path, "agents", &row, &rest))
            agents_->markError(row, rest, message);
        else
            for (QWidget* w : errorFields(e)) {
                w->setStyleSheet(QString::fromLatin1(kErrorStyle));
                w->setToolTip(w->toolTip().isEmpty() ? message
                                                     : w->toolTip() + QLatin1Char('\n') + message);
            }
    }
    showTargetErrors();
    errorText_ = lines.join(QLatin1Char('\n'));
    errors_->setText(lines.isEmpty() ? tr("The spec is valid: Start runs it.") : errorText_);
    errorBox_->setStyleSheet(
        QString::fromLatin1(lines.isEmpty() ? kSummaryValidStyle : kSummaryErrorStyle));
}

// The field an error names, or the nearest one above it; an error about an object the form
// has no field for ("cache.value_size: min 5 > max 3") marks its fields the message names, or
// all of them when it names none.
std::vector<QWidget*> SpecForm::errorFields(const SpecError& e) const {
    if (QWidget* w = fields_.find(e.path)) return {w};
    const auto below = fields_.below(e.path);
    std::vector<QWidget*> named, all;
    for (const auto& [rest, w] : below) {
        all.push_back(w);
        if (names_word(e.message, rest)) named.push_back(w);
    }
    return named.empty() ? all : named;
}

int SpecForm::selectedTarget() const {
    if (targets_->rowCount() == 0) return -1;
    return std::max(targets_->table()->currentRow(), 0);
}

void SpecForm::showTarget() {
    const int row = selectedTarget();
    targetDetails_->setEnabled(row >= 0);
    if (auto* label = qobject_cast<QLabel*>(
            static_cast<QFormLayout*>(http_->layout())->labelForField(targetDetails_)))
        label->setText(row >= 0 ? tr("Target %1").arg(row + 1) : tr("Selected target"));
    const QTableWidgetItem* item =
        row >= 0 ? targets_->table()->item(row, kTargetDetailsColumn) : nullptr;
    const QString text = item ? item->text() : QString();
    targetDetails_->setJson(text.isEmpty() ? nlohmann::json::object()
                                           : nlohmann::json::parse(text.toStdString()));
    targetDetails_->clearErrors();
    showTargetErrors();
    if (!filling_ && start_) updateRequestPreview(json());
}

void SpecForm::storeTargetDetails() {
    const int row = selectedTarget();
    if (row < 0) return;
    const nlohmann::json details = targetDetails_->json();
    // Through the table, so adding, removing and loading targets carry the details along.
    targets_->table()
        ->item(row, kTargetDetailsColumn)
        ->setText(details.empty() ? QString() : QString::fromStdString(details.dump()));
}

void SpecForm::showTargetErrors() {
    const int selected = selectedTarget();
    for (const SpecError& e : errorList_) {
        int row = 0;
        std::string rest;
        if (table_path(e.path, "http.targets", &row, &rest) && row == selected)
            targetDetails_->markError(rest, target_error(row, rest, e.message));
    }
}

void SpecForm::updateRequestPreview(const nlohmann::json& spec) {
    requestPreview_->preview(spec.value("http", nlohmann::json::object()), selectedTarget(),
                             preview_seed(spec));
}

QWidget* SpecForm::errorWidget(const SpecError& e) const {
    int row = 0;
    std::string rest;
    if (table_path(e.path, "phases", &row, &rest)) return phases_;
    if (table_path(e.path, "cache.commands", &row, &rest)) return commands_;
    if (table_path(e.path, "http.targets", &row, &rest)) return targets_;
    if (table_path(e.path, "http.session", &row, &rest)) return session_;
    if (table_path(e.path, "probes", &row, &rest)) return probes_;
    if (table_path(e.path, "agents", &row, &rest)) return agents_;
    const auto fields = errorFields(e);
    return fields.empty() ? nullptr : fields.front();
}

// Once the form is laid out and shown: before, the field's position is not known yet.
void SpecForm::revealFirstError() {
    revealPending_ = true;
    QMetaObject::invokeMethod(this, &SpecForm::revealIfShown, Qt::QueuedConnection);
}

void SpecForm::revealIfShown() {
    if (!revealPending_ || !isVisible()) return;
    revealPending_ = false;
    if (errorList_.empty()) return;
    if (QWidget* w = errorWidget(errorList_.front())) scroll_->ensureWidgetVisible(w);
}

void SpecForm::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (revealPending_)
        QMetaObject::invokeMethod(this, &SpecForm::revealIfShown, Qt::QueuedConnection);
}

QString SpecForm::errorText() const {
    return errorText_;
}

bool SpecForm::loadFile(const QString& path, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = tr("cannot read %1: %2").arg(path, file.errorString());
        return false;
    }
    const QByteArray bytes = file.readAll();
    const nlohmann::json j = nlohmann::json::parse(bytes.begin(), bytes.end(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        *error = tr("%1 is not a JSON object").arg(path);
        return false;
    }
    setJson(j);
    if (!path.startsWith(QLatin1Char(':'))) filePath_ = path;  // a template is no file to save
    return true;
}

bool SpecForm::saveFile(const QString& path, QString* error) {
    QSaveFile file(path);
    const std::string text = masked_for_storage(spec_ ? to_json(*spec_) : json()).dump(2) + "\n";
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) < 0 ||
        !file.commit()) {
        *error = tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    filePath_ = path;
    return true;
}

QStringList SpecForm::templates() {
    QStringList out;
    const QDir dir(QStringLiteral(":/specs"));
    const auto names = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QString& name : names)
        out << dir.filePath(name);
    return out;
}

bool SpecForm::loadTemplate(const QString& resource, QString* error) {
    return loadFile(resource, error);
}

}  // namespace perflab
