// SPDX-License-Identifier: MIT
#include "request_preview.h"

#include <QFontDatabase>
#include <algorithm>
#include <stdexcept>

#include "http/http_request.h"
#include "http/request_template.h"
#include "model/run_seed.h"
#include "model/template_syntax.h"
#include "target_details.h"

namespace perflab {

namespace {

constexpr int kRequests = 3;
constexpr qsizetype kShownBytes = 2000;  // a large body file says what it starts with

// {{env NAME}} may hold a token: the preview says that it is set, never what it is.
std::optional<std::string> masked_environment(const std::string& name) {
    if (!process_environment(name)) return std::nullopt;
    return "‹" + name + "›";
}

// The engine names its errors "http.targets[0].url: ..." for the one target it was given.
QString engine_error(const std::string& what, int row) {
    const std::string prefix = "http.targets[0]";
    if (what.rfind(prefix, 0) != 0) return QString::fromStdString(what);
    const std::string rest = what.substr(prefix.size());
    const size_t colon = rest.find(": ");
    if (colon == std::string::npos) return QString::fromStdString(what);
    return target_error(row, rest.substr(0, colon), rest.substr(colon + 2));
}

QString shown(const std::string& request, int n, uint64_t seq) {
    QString text = QString::fromStdString(request);
    text.replace(QLatin1String("\r\n"), QLatin1String("\n"));
    if (text.size() > kShownBytes) text = text.left(kShownBytes) + QStringLiteral("…");
    return QObject::tr("# request %1 ({{seq}} %2)\n").arg(n).arg(seq) + text;
}

// The {{var NAME}} a target uses: a session captures them from responses the preview has not
// got, so it shows each by its name.
std::vector<std::string> vars_of(const nlohmann::json& target) {
    std::vector<std::string> out;
    const auto add = [&](const nlohmann::json& text) {
        if (!text.is_string()) return;
        for (auto& name : template_var_names(text.get<std::string>()))
            if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    };
    add(target.value("url", nlohmann::json()));
    if (const auto headers = target.find("headers");
        headers != target.end() && headers->is_object())
        for (const auto& value : *headers)
            add(value);
    add(target.value("body_template", nlohmann::json()));
    return out;
}

// A session that captures `vars` (from a second target, never sent) before the target's step.
void add_capturing_session(nlohmann::json& one, const std::vector<std::string>& vars) {
    if (vars.empty()) return;
    one["targets"].push_back({{"url", "http://127.0.0.1/"}});
    nlohmann::json& steps = one["session"] = nlohmann::json::array();
    for (const auto& name : vars)
        steps.push_back({{"target", 1}, {"capture", {{"name", name}, {"json", "$." + name}}}});
    steps.push_back({{"target", 0}});
}

}  // namespace

QString render_requests(const nlohmann::json& http, int row, uint64_t seed) {
    const auto& targets = http.value("targets", nlohmann::json::array());
    if (row < 0 || row >= int(targets.size())) return QObject::tr("No target selected.");
    nlohmann::json one = {{"targets", nlohmann::json::array({targets[size_t(row)]})}};
    if (http.contains("keepalive")) one["keepalive"] = http["keepalive"];
    add_capturing_session(one, vars_of(targets[size_t(row)]));
    const SpecResult parsed = parse_spec(
        {{"kind", "http"}, {"phases", {{{"duration_s", 1}, {"concurrency", 1}}}}, {"http", one}});
    if (!parsed) {
        QStringList lines;
        for (const SpecError& e : parsed.errors)
            lines << engine_error(e.text(), row);
        return lines.join(QLatin1Char('\n'));
    }
    try {
        const HttpPlan plan = prepare_http(*parsed.spec->http, masked_environment);
        const PreparedTarget& t = plan.targets.front();
        QStringList requests;
        if (!t.program) {
            for (int n = 0; n < kRequests; ++n)
                requests << shown(t.bytes, n + 1, uint64_t(n));
            return requests.join(QStringLiteral("\n\n"));
        }
        RenderState state(stream_seed(seed, 0, Stream::templates));
        state.rows.resize(t.program->csv_sources());
        std::vector<std::string> values;
        for (const auto& name : plan.vars)
            values.push_back("‹" + name + "›");
        state.values = values.data();
        std::string out, body;
        for (int n = 0; n < kRequests; ++n) {
            t.program->render(out, body, state, uint64_t(n));
            requests << shown(out, n + 1, uint64_t(n));
        }
        return requests.join(QStringLiteral("\n\n"));
    } catch (const std::runtime_error& e) {
        return engine_error(e.what(), row);
    }
}

RequestPreview::RequestPreview(QWidget* parent) : QPlainTextEdit(parent) {
    setReadOnly(true);
    setObjectName(QStringLiteral("requestPreview"));
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setMinimumHeight(160);
}

void RequestPreview::preview(const nlohmann::json& http, int row, uint64_t seed) {
    const QString text = render_requests(http, row, seed);
    if (text != toPlainText()) setPlainText(text);
}

}  // namespace perflab
