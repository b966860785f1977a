// SPDX-License-Identifier: MIT
#include "probe_row.h"

#include <QObject>

#include "json_fields.h"

namespace perflab {

namespace {

// The keys that name a probe's type; a jvm probe's "ssh" is its host, so jvm comes first.
constexpr const char* kProbeTypes[] = {"jvm",   "ssh",        "memcached", "redis",
                                       "local", "prometheus", "process"};

std::string probe_type(const nlohmann::json& o) {
    for (const char* t : kProbeTypes)
        if (o.contains(t)) return t;
    return "local";
}

QStringList empty_cells() {
    QStringList c;
    for (int i = 0; i < kProbeColumns; ++i)
        c << QString();
    return c;
}

// Moves `key` of `from` to `cell` when a cell can hold its value.
void take(nlohmann::json& from, const char* key, QString& cell) {
    const auto it = from.find(key);
    if (it == from.end() || it->is_structured() || it->is_null()) return;
    cell = JsonFields::text(*it);
    from.erase(it);
}

void put_text(nlohmann::json& o, const char* key, const QString& cell) {
    if (!cell.isEmpty()) o[key] = cell.toStdString();
}

// As typed: a number or true/false as such, other text for the spec's check to name.
void put_scalar(nlohmann::json& o, const char* key, const QString& cell) {
    if (!cell.isEmpty()) o[key] = JsonFields::scalar(cell);
}

// A pid is a number; any other text is a pattern to match.
void put_process(nlohmann::json& o, const QString& cell) {
    if (cell.isEmpty()) return;
    if (const nlohmann::json pid = JsonFields::scalar(cell); pid.is_number_integer())
        o["pid"] = pid;
    else
        o["match"] = cell.toStdString();
}

QStringList cells_of(const nlohmann::json& o) {
    QStringList c = empty_cells();
    const std::string type = probe_type(o);
    c[kProbeType] = QString::fromStdString(type);
    nlohmann::json more = o;
    if (type == "jvm" || type == "process") {
        nlohmann::json& inner = more[type];
        if (inner.is_object()) {
            if (type == "jvm") {
                take(inner, "ssh", c[kProbeTarget]);
                take(inner, "key", c[kProbeKey]);
            }
            take(inner, inner.contains("pid") ? "pid" : "match", c[kProbeProcess]);
            if (type == "process") take(inner, "top", c[kProbeTop]);
            if (inner.empty()) more.erase(type);
        }
    } else if (type == "local") {
        if (const auto it = more.find("local"); it != more.end() && *it == true) more.erase(it);
    } else {
        take(more, type.c_str(), c[kProbeTarget]);
    }
    if (type != "jvm") take(more, "key", c[kProbeKey]);
    take(more, "per_core", c[kProbePerCore]);
    if (const auto it = more.find("metrics"); it != more.end() && it->is_array()) {
        QStringList selectors;
        for (const auto& s : *it)
            selectors << JsonFields::text(s);
        c[kProbeMetrics] = selectors.join(QStringLiteral(", "));
        more.erase(it);
    }
    take(more, "interval_ms", c[kProbeInterval]);
    take(more, "via", c[kProbeVia]);
    if (!more.empty()) c[kProbeMore] = QString::fromStdString(more.dump());
    return c;
}

}  // namespace

std::vector<RowTable::Column> probe_columns() {
    return {
        {QObject::tr("type"), "type",
         QObject::tr("local, ssh, memcached, redis, jvm, prometheus or process")},
        {QObject::tr("target"), "ssh|memcached|redis|prometheus|jvm.ssh",
         QObject::tr("ssh: user@host:port; memcached, redis: host:port; prometheus: its http:// "
                     "URL; jvm: its host over SSH")},
        {QObject::tr("key file"), "key|jvm.key", QObject::tr("SSH private key; empty: ssh-agent")},
        {QObject::tr("per core"), "per_core", QObject::tr("true: CPU per core as well")},
        {QObject::tr("pid / match"), "jvm|process",
         QObject::tr("jvm, process: its process id, or a pgrep -f pattern")},
        {QObject::tr("metrics"), "metrics",
         QObject::tr("prometheus: selectors, comma-separated: "
                     "node_load1, node_cpu_seconds_total{mode!=\"idle\",cpu=~\"0|1\"}")},
        {QObject::tr("every ms"), "interval_ms",
         QObject::tr("prometheus: scrape every N ms; empty: every tick")},
        {QObject::tr("top threads"), "process.top",
         QObject::tr("process: its N busiest threads; empty: 5")},
        {QObject::tr("via"), "via",
         QObject::tr("prometheus, process, redis: reached over SSH from user@host[:port]")},
        {QObject::tr("more (JSON)"), "more", QObject::tr(R"({"password": "${REDIS_PASSWORD}"})")}};
}

nlohmann::json probe_row_json(const QStringList& c) {
    const std::string type =
        c[kProbeType].isEmpty() ? "local" : c[kProbeType].trimmed().toStdString();
    nlohmann::json j = nlohmann::json::object();
    if (!c[kProbeMore].isEmpty()) {
        j = nlohmann::json::parse(c[kProbeMore].toStdString(), nullptr, false);
        // Not a JSON object: handed on under the column's key, which the spec's check names.
        if (!j.is_object()) j = {{"more", c[kProbeMore].toStdString()}};
    }
    if (type == "jvm" || type == "process") {
        nlohmann::json& inner = j[type];
        if (inner.is_null()) inner = nlohmann::json::object();
        if (inner.is_object()) {
            if (type == "jvm") {
                put_text(inner, "ssh", c[kProbeTarget]);
                put_text(inner, "key", c[kProbeKey]);
            }
            put_process(inner, c[kProbeProcess]);
            if (type == "process") put_scalar(inner, "top", c[kProbeTop]);
        }
    } else {
        if (type == "local") {
            if (!j.contains("local")) j["local"] = true;
        } else if (!c[kProbeTarget].isEmpty() || !j.contains(type)) {
            j[type] = c[kProbeTarget].toStdString();
        }
        put_text(j, "key", c[kProbeKey]);
        // Not this type's: where the spec's check names it.
        put_process(j, c[kProbeProcess]);
    }
    if (type != "process") put_scalar(j, "top", c[kProbeTop]);
    put_scalar(j, "per_core", c[kProbePerCore]);
    if (!c[kProbeMetrics].isEmpty()) {
        nlohmann::json metrics = nlohmann::json::array();
        for (const QString& s : split_selectors(c[kProbeMetrics]))
            metrics.push_back(s.toStdString());
        j["metrics"] = metrics;
    }
    put_scalar(j, "interval_ms", c[kProbeInterval]);
    put_text(j, "via", c[kProbeVia]);
    return j;
}

QStringList probe_row_cells(const nlohmann::json& o) {
    QStringList whole = empty_cells();
    // Not a probe at all: kept as written, for the spec's check to name.
    if (!o.is_object()) {
        whole[kProbeMore] = QString::fromStdString(o.dump());
        return whole;
    }
    const QStringList c = cells_of(o);
    QStringList read;  // as the table gives its cells back
    for (const QString& cell : c)
        read << cell.trimmed();
    if (probe_row_json(read) == o) return c;
    whole[kProbeType] = c[kProbeType];
    whole[kProbeMore] = QString::fromStdString(o.dump());
    return whole;
}

QStringList split_selectors(const QString& text) {
    QStringList out;
    QString current;
    const auto flush = [&] {
        if (!current.trimmed().isEmpty()) out << current.trimmed();
        current.clear();
    };
    int depth = 0;
    QChar quote;
    bool escaped = false;
    for (const QChar ch : text) {
        if (!quote.isNull()) {
            if (escaped)
                escaped = false;
            else if (ch == QLatin1Char('\\') && quote != QLatin1Char('`'))
                escaped = true;
            else if (ch == quote)
                quote = QChar();
        } else if (depth > 0 &&
                   (ch == QLatin1Char('"') || ch == QLatin1Char('\'') || ch == QLatin1Char('`'))) {
            quote = ch;
        } else if (ch == QLatin1Char('{')) {
            ++depth;
        } else if (ch == QLatin1Char('}') && depth > 0) {
            --depth;
        } else if (depth == 0 && (ch == QLatin1Char(',') || ch == QLatin1Char('\n'))) {
            flush();
            continue;
        }
        current += ch;
    }
    flush();
    return out;
}

}  // namespace perflab
