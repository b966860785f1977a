// SPDX-License-Identifier: MIT
#include "spec_tables.h"

#include <QTableWidget>

#include "json_fields.h"
#include "probe_row.h"
#include "row_table.h"

namespace perflab {

namespace {

QString field(const nlohmann::json& o, const char* key) {
    const auto it = o.find(key);
    return it == o.end() ? QString() : JsonFields::text(*it);
}

// "Accept: text/html; X-Id: 7" ↔ {"Accept": "text/html", "X-Id": "7"}
nlohmann::json headers_json(const QString& text) {
    nlohmann::json h = nlohmann::json::object();
    const auto parts = text.split(QLatin1Char(';'), Qt::SkipEmptyParts);
    for (const QString& part : parts) {
        const qsizetype colon = part.indexOf(QLatin1Char(':'));
        const QString name = part.left(colon).trimmed();
        if (!name.isEmpty())
            h[name.toStdString()] =
                colon < 0 ? std::string() : part.mid(colon + 1).trimmed().toStdString();
    }
    return h;
}

QString headers_text(const nlohmann::json& o) {
    QStringList parts;
    if (const auto it = o.find("headers"); it != o.end() && it->is_object())
        for (const auto& [k, v] : it->items())
            parts << QString::fromStdString(k) % QStringLiteral(": ") % JsonFields::text(v);
    return parts.join(QStringLiteral("; "));
}

// think min and max: [min, max], or one number when they are equal or max is left empty.
nlohmann::json think_json(const QString& min, const QString& max) {
    if (max.isEmpty() || max == min) return JsonFields::scalar(min);
    if (min.isEmpty()) return JsonFields::scalar(max);
    return nlohmann::json::array({JsonFields::scalar(min), JsonFields::scalar(max)});
}

constexpr const char* kCaptureSources[] = {"json", "header", "regex"};

nlohmann::json session_step_json(const QStringList& c) {
    nlohmann::json j = nlohmann::json::object();
    if (!c[0].isEmpty()) j["target"] = JsonFields::scalar(c[0]);
    if (!c[1].isEmpty() || !c[2].isEmpty()) j["think_ms"] = think_json(c[1], c[2]);
    if (!c[3].isEmpty() || !c[5].isEmpty()) {
        const std::string from = c[4].isEmpty() ? "json" : c[4].trimmed().toStdString();
        j["capture"] = {{"name", c[3].toStdString()}, {from, c[5].toStdString()}};
    }
    return j;
}

QStringList session_step_cells(const nlohmann::json& o) {
    QStringList c = {field(o, "target"), {}, {}, {}, {}, {}};
    if (const auto it = o.find("think_ms"); it != o.end()) {
        const bool range = it->is_array() && it->size() == 2;
        c[1] = JsonFields::text(range ? (*it)[0] : *it);
        if (range) c[2] = JsonFields::text((*it)[1]);
    }
    if (const auto it = o.find("capture"); it != o.end() && it->is_object()) {
        c[3] = field(*it, "name");
        for (const char* from : kCaptureSources)
            if (it->contains(from)) {
                c[4] = QString::fromLatin1(from);
                c[5] = field(*it, from);
            }
    }
    return c;
}

}  // namespace

RowTable* make_phase_table(QWidget* parent) {
    static const char* keys[] = {"duration_s", "ops", "rate", "rate_to", "concurrency"};
    std::vector<RowTable::Column> columns = {
        {QObject::tr("duration s"), "duration_s", QObject::tr("seconds; empty: until ops")},
        {QObject::tr("ops"), "ops", QObject::tr("operations; empty: until duration")},
        {QObject::tr("rate/s"), "rate", QObject::tr("open model; empty: closed model")},
        {QObject::tr("ramp to/s"), "rate_to", QObject::tr("linear ramp from rate")},
        {QObject::tr("connections"), "concurrency", QObject::tr("connections")},
        {QObject::tr("own workload (JSON)"), "workload",
         QObject::tr(R"(cache: {"keys": {"count": 10000000000}}; empty: the cache section's)")}};
    // The last column keeps what else the phase holds (a cache phase's own "workload",
    // "keys", "value_size"...) as JSON, so a spec opened in the form is saved with it.
    auto to_json = [](const QStringList& c) {
        nlohmann::json j = nlohmann::json::object();
        const QString& rest = c[kPhaseWorkloadColumn];
        if (!rest.isEmpty()) {
            j = nlohmann::json::parse(rest.toStdString(), nullptr, false);
            // Not a JSON object: handed on under the column's key, which the spec's check names.
            if (!j.is_object()) j = {{"workload", rest.toStdString()}};
        }
        for (int i = 0; i < kPhaseWorkloadColumn; ++i)
            if (!c[i].isEmpty()) j[keys[i]] = JsonFields::scalar(c[i]);
        return j;
    };
    auto from_json = [](const nlohmann::json& o) {
        QStringList c;
        for (const char* k : keys)
            c << field(o, k);
        nlohmann::json rest = o.is_object() ? o : nlohmann::json::object();
        for (const char* k : keys)
            rest.erase(k);
        c << (rest.empty() ? QString() : QString::fromStdString(rest.dump()));
        return c;
    };
    return new RowTable(std::move(columns), to_json, from_json, parent);
}

RowTable* make_target_table(QWidget* parent) {
    std::vector<RowTable::Column> columns = {
        {QObject::tr("method"), "method", QStringLiteral("GET")},
        {QObject::tr("URL"), "url", QStringLiteral("http://127.0.0.1:8080/")},
        {QObject::tr("weight"), "weight", QObject::tr("share of the requests; empty: 1")},
        {QObject::tr("headers"), "headers", QObject::tr("Name: value; Name2: value")},
        {QObject::tr("body"), "body", QObject::tr("request body")},
        {QObject::tr("body file"), "body_file", QObject::tr("file with the request body")},
        {QObject::tr("details"), "details", {}}};
    auto to_json = [](const QStringList& c) {
        nlohmann::json j = {{"url", c[1].toStdString()}};
        if (!c[0].isEmpty()) j["method"] = c[0].toStdString();
        if (!c[2].isEmpty()) j["weight"] = JsonFields::scalar(c[2]);
        if (!c[3].isEmpty()) j["headers"] = headers_json(c[3]);
        if (!c[4].isEmpty()) j["body"] = c[4].toStdString();
        if (!c[5].isEmpty()) j["body_file"] = c[5].toStdString();
        if (!c[kTargetDetailsColumn].isEmpty())
            j.update(nlohmann::json::parse(c[kTargetDetailsColumn].toStdString()));
        return j;
    };
    auto from_json = [](const nlohmann::json& o) {
        nlohmann::json details = nlohmann::json::object();
        for (const char* key : {"body_template", "content_type", "expect"})
            if (o.contains(key)) details[key] = o[key];
        return QStringList{field(o, "method"),
                           field(o, "url"),
                           field(o, "weight"),
                           headers_text(o),
                           field(o, "body"),
                           field(o, "body_file"),
                           details.empty() ? QString() : QString::fromStdString(details.dump())};
    };
    auto* table = new RowTable(std::move(columns), to_json, from_json, parent);
    table->table()->setColumnHidden(kTargetDetailsColumn, true);
    table->table()->setColumnWidth(2, 60);  // a small number; the URL needs the room
    return table;
}

RowTable* make_session_table(QWidget* parent) {
    std::vector<RowTable::Column> columns = {
        {QObject::tr("target"), "target", QObject::tr("the target's number, counted from 0")},
        {QObject::tr("think min ms"), "think_ms", QObject::tr("wait before the step; empty: 0")},
        {QObject::tr("think max ms"), "think_ms", QObject::tr("drawn uniformly up to it")},
        {QObject::tr("capture name"), "capture", QObject::tr("later steps use {{var NAME}}")},
        {QObject::tr("capture from"), "capture", QObject::tr("json, header or regex")},
        {QObject::tr("capture"), "capture", QObject::tr("$.token, X-Token, or token=(\\w+)")}};
    auto* table = new RowTable(std::move(columns), session_step_json, session_step_cells, parent);
    table->table()->setColumnWidth(0, 50);
    return table;
}

RowTable* make_probe_table(QWidget* parent) {
    auto* table = new RowTable(probe_columns(), probe_row_json, probe_row_cells, parent);
    for (const int small : {kProbePerCore, kProbeInterval, kProbeTop})
        table->table()->setColumnWidth(small, 70);
    return table;
}

// "local" in the host column is this machine sending its share too ({"local": true}).
RowTable* make_agent_table(QWidget* parent) {
    std::vector<RowTable::Column> columns = {
        {QObject::tr("host"), "host", QObject::tr("user@host:port, or local for this machine")},
        {QObject::tr("key file"), "key", QObject::tr("SSH private key; empty: ssh-agent")},
        {QObject::tr("perflab"), "perflab",
         QObject::tr("the agent program on that host; empty: perflab on its PATH")}};
    auto to_json = [](const QStringList& c) {
        if (c[0].trimmed() == QLatin1String("local")) return nlohmann::json{{"local", true}};
        nlohmann::json j = {{"host", c[0].toStdString()}};
        if (!c[1].isEmpty()) j["key"] = c[1].toStdString();
        if (!c[2].isEmpty()) j["perflab"] = c[2].toStdString();
        return j;
    };
    auto from_json = [](const nlohmann::json& o) {
        if (o.value("local", false)) return QStringList{QStringLiteral("local"), {}, {}};
        const QString program = field(o, "perflab");
        return QStringList{field(o, "host"), field(o, "key"),
                           program == QLatin1String("perflab") ? QString() : program};
    };
    return new RowTable(std::move(columns), to_json, from_json, parent);
}

// "cache.commands": Redis command lines with {{key}}, {{value}} and the other templates.
RowTable* make_command_table(QWidget* parent) {
    std::vector<RowTable::Column> columns = {
        {QObject::tr("command"), "cmd", QStringLiteral("HSET {{key}} f {{value}}")},
        {QObject::tr("weight"), "weight", QObject::tr("share of the ops; empty: 1")},
        {QObject::tr("name"), "name", QObject::tr("its op's name; empty: the command, hset")}};
    auto to_json = [](const QStringList& c) {
        nlohmann::json j = {{"cmd", c[0].toStdString()}};
        if (!c[1].isEmpty()) j["weight"] = JsonFields::scalar(c[1]);
        if (!c[2].isEmpty()) j["name"] = c[2].toStdString();
        return j;
    };
    auto from_json = [](const nlohmann::json& o) {
        return QStringList{field(o, "cmd"), field(o, "weight"), field(o, "name")};
    };
    auto* table = new RowTable(std::move(columns), to_json, from_json, parent);
    table->table()->setColumnWidth(0, 260);  // the command needs the room
    table->table()->setColumnWidth(1, 60);
    return table;
}

}  // namespace perflab
