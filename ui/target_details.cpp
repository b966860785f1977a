// SPDX-License-Identifier: MIT
#include "target_details.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>

#include "form_errors.h"
#include "json_fields.h"

namespace perflab {

namespace {

const char* const kErrorStyle = "background: #ffcdd2;";

// "200, 201" ↔ [200, 201]; a word goes through as text so the validator names it.
nlohmann::json status_json(const QString& text) {
    nlohmann::json a = nlohmann::json::array();
    const auto parts = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& part : parts)
        if (!part.trimmed().isEmpty()) a.push_back(JsonFields::scalar(part));
    return a;
}

QString status_text(const nlohmann::json& status) {
    if (!status.is_array()) return JsonFields::text(status);
    QStringList parts;
    for (const auto& code : status)
        parts << JsonFields::text(code);
    return parts.join(QStringLiteral(", "));
}

// `equals` is any JSON value: typed as JSON (true, 3, "ok", {"a": 1}), or else plain text.
nlohmann::json equals_json(const QString& text) {
    const std::string s = text.trimmed().toStdString();
    auto j = nlohmann::json::parse(s, nullptr, false);
    return j.is_discarded() ? nlohmann::json(s) : j;
}

// Text that would read as another JSON value ("true", "3") keeps its quotes.
QString equals_text(const nlohmann::json& v) {
    if (v.is_string() && nlohmann::json::parse(v.get<std::string>(), nullptr, false).is_discarded())
        return QString::fromStdString(v.get<std::string>());
    return QString::fromStdString(v.dump());
}

QString text_at(const nlohmann::json& o, const nlohmann::json::json_pointer& at) {
    return o.contains(at) ? JsonFields::text(o.at(at)) : QString();
}

}  // namespace

QString target_error(int row, const std::string& rest, const std::string& message) {
    return row_error(QObject::tr("target"), row, rest, message);
}

TargetDetails::TargetDetails(QWidget* parent)
    : QWidget(parent), bodyTemplate_(new QPlainTextEdit(this)), errors_(new QLabel(this)) {
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    bodyTemplate_->setObjectName(QStringLiteral("target.body_template"));
    bodyTemplate_->setPlaceholderText(tr("{\"id\": {{seq}}}: instead of the body or body file"));
    bodyTemplate_->setMaximumHeight(70);
    connect(bodyTemplate_, &QPlainTextEdit::textChanged, this, [this] {
        if (!filling_) emit changed();
    });
    form->addRow(tr("Body template"), bodyTemplate_);
    contentType_ =
        line(form, tr("Content-Type"), "content_type", QStringLiteral("application/json"));
    status_ = line(form, tr("Expect status"), "expect.status", QStringLiteral("200, 201"));
    contains_ = line(form, tr("Body contains"), "expect.body_contains", {});
    regex_ = line(form, tr("Body matches"), "expect.body_regex", tr("regular expression"));
    jsonPath_ = line(form, tr("JSON path"), "expect.json.path", QStringLiteral("$.ok"));
    jsonEquals_ = line(form, tr("JSON equals"), "expect.json.equals", tr("true, 3, \"ok\"…"));
    maxBytes_ = line(form, tr("Max body (B)"), "expect.max_bytes", {});
    errors_->setObjectName(QStringLiteral("targetErrors"));
    errors_->setStyleSheet(QStringLiteral("color: #58151c;"));
    errors_->setWordWrap(true);
    errors_->hide();
    form->addRow(errors_);
}

QLineEdit* TargetDetails::line(QFormLayout* form, const QString& label, const std::string& key,
                               const QString& placeholder) {
    auto* edit = new QLineEdit(this);
    edit->setObjectName(QString::fromStdString("target." + key));
    edit->setPlaceholderText(placeholder);
    connect(edit, &QLineEdit::textChanged, this, [this] {
        if (!filling_) emit changed();
    });
    form->addRow(label, edit);
    return edit;
}

nlohmann::json TargetDetails::json() const {
    nlohmann::json j = nlohmann::json::object();
    const auto put = [](nlohmann::json& o, const char* key, const QString& text) {
        if (!text.trimmed().isEmpty()) o[key] = text.trimmed().toStdString();
    };
    if (const QString body = bodyTemplate_->toPlainText(); !body.isEmpty())
        j["body_template"] = body.toStdString();
    put(j, "content_type", contentType_->text());
    nlohmann::json expect = nlohmann::json::object();
    if (auto status = status_json(status_->text()); !status.empty()) expect["status"] = status;
    put(expect, "body_contains", contains_->text());
    put(expect, "body_regex", regex_->text());
    if (!jsonPath_->text().trimmed().isEmpty() || !jsonEquals_->text().trimmed().isEmpty()) {
        nlohmann::json check = nlohmann::json::object();
        put(check, "path", jsonPath_->text());
        if (!jsonEquals_->text().trimmed().isEmpty())
            check["equals"] = equals_json(jsonEquals_->text());
        expect["json"] = check;
    }
    if (!maxBytes_->text().trimmed().isEmpty())
        expect["max_bytes"] = JsonFields::scalar(maxBytes_->text());
    if (!expect.empty()) j["expect"] = expect;
    return j;
}

void TargetDetails::setJson(const nlohmann::json& d) {
    using Ptr = nlohmann::json::json_pointer;
    filling_ = true;
    bodyTemplate_->setPlainText(text_at(d, Ptr("/body_template")));
    contentType_->setText(text_at(d, Ptr("/content_type")));
    status_->setText(d.contains(Ptr("/expect/status")) ? status_text(d.at(Ptr("/expect/status")))
                                                       : QString());
    contains_->setText(text_at(d, Ptr("/expect/body_contains")));
    regex_->setText(text_at(d, Ptr("/expect/body_regex")));
    jsonPath_->setText(text_at(d, Ptr("/expect/json/path")));
    jsonEquals_->setText(d.contains(Ptr("/expect/json/equals"))
                             ? equals_text(d.at(Ptr("/expect/json/equals")))
                             : QString());
    maxBytes_->setText(text_at(d, Ptr("/expect/max_bytes")));
    filling_ = false;
}

void TargetDetails::clearErrors() {
    for (QWidget* w :
         std::initializer_list<QWidget*>{bodyTemplate_, contentType_, status_, contains_, regex_,
                                         jsonPath_, jsonEquals_, maxBytes_}) {
        w->setStyleSheet(QString());
        w->setToolTip(QString());
    }
    errors_->clear();
    errors_->hide();
}

QWidget* TargetDetails::widgetFor(const std::string& rest) const {
    const std::pair<const char*, QWidget*> fields[] = {
        {".body_template", bodyTemplate_}, {".content_type", contentType_},
        {".expect.status", status_},       {".expect.body_contains", contains_},
        {".expect.body_regex", regex_},    {".expect.json.equals", jsonEquals_},
        {".expect.json", jsonPath_},       {".expect.max_bytes", maxBytes_},
    };
    for (const auto& [prefix, widget] : fields)
        if (rest.rfind(prefix, 0) == 0) return widget;
    return nullptr;
}

void TargetDetails::markError(const std::string& rest, const QString& message) {
    QWidget* w = widgetFor(rest);
    if (!w) return;
    w->setStyleSheet(QString::fromLatin1(kErrorStyle));
    w->setToolTip(message);
    errors_->setText(errors_->text().isEmpty() ? message : errors_->text() + '\n' + message);
    errors_->show();
}

}  // namespace perflab
