// SPDX-License-Identifier: MIT
#include "json_fields.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPlainTextEdit>

namespace perflab {

nlohmann::json::json_pointer json_pointer(const std::string& path) {
    std::string p = "/";
    for (char c : path) {
        if (c == '.' || c == '[')
            p += '/';
        else if (c != ']')
            p += c;
    }
    return nlohmann::json::json_pointer(p);
}

void JsonFields::bind(const std::string& path, QWidget* widget, Type type) {
    fields_.push_back({path, widget, type});
}

nlohmann::json JsonFields::scalar(const QString& text) {
    const QString t = text.trimmed();
    if (t == QLatin1String("true")) return true;
    if (t == QLatin1String("false")) return false;
    bool ok = false;
    if (const qlonglong i = t.toLongLong(&ok); ok) return int64_t(i);
    if (const double d = t.toDouble(&ok); ok) return d;
    return t.toStdString();
}

QString JsonFields::text(const nlohmann::json& v) {
    if (v.is_string()) return QString::fromStdString(v.get<std::string>());
    if (v.is_null()) return {};
    // 300.0 reads better as 300; a spec's seconds and rates are doubles.
    if (v.is_number_float() && v.get<double>() == double(int64_t(v.get<double>())))
        return QString::number(int64_t(v.get<double>()));
    return QString::fromStdString(v.dump());
}

nlohmann::json JsonFields::value(const Field& f) {
    switch (f.type) {
        case Type::text:
            if (auto* e = qobject_cast<QPlainTextEdit*>(f.widget)) {
                const QString t = e->toPlainText();
                return t.isEmpty() ? nlohmann::json() : nlohmann::json(t.toStdString());
            } else {
                const QString t = static_cast<QLineEdit*>(f.widget)->text();
                return t.isEmpty() ? nlohmann::json() : nlohmann::json(t.toStdString());
            }
        case Type::number: {
            const QString t = static_cast<QLineEdit*>(f.widget)->text().trimmed();
            return t.isEmpty() ? nlohmann::json() : scalar(t);
        }
        case Type::list: {
            nlohmann::json a = nlohmann::json::array();
            const auto parts = static_cast<QLineEdit*>(f.widget)->text().split(QLatin1Char(','));
            for (const QString& part : parts)
                if (!part.trimmed().isEmpty()) a.push_back(part.trimmed().toStdString());
            return a.empty() ? nlohmann::json() : a;
        }
        case Type::choice:
            return static_cast<QComboBox*>(f.widget)->currentText().toStdString();
        case Type::flag:
            return static_cast<QCheckBox*>(f.widget)->isChecked();
    }
    return {};
}

void JsonFields::set(const Field& f, const nlohmann::json& v) {
    switch (f.type) {
        case Type::text:
        case Type::number:
            if (auto* e = qobject_cast<QPlainTextEdit*>(f.widget))
                e->setPlainText(text(v));
            else
                static_cast<QLineEdit*>(f.widget)->setText(text(v));
            break;
        case Type::list: {
            QStringList parts;
            if (v.is_array())
                for (const auto& item : v)
                    parts << text(item);
            static_cast<QLineEdit*>(f.widget)->setText(parts.join(QStringLiteral(", ")));
            break;
        }
        case Type::choice:
            if (v.is_string()) static_cast<QComboBox*>(f.widget)->setCurrentText(text(v));
            break;
        case Type::flag:
            static_cast<QCheckBox*>(f.widget)->setChecked(v.is_boolean() && v.get<bool>());
            break;
    }
}

void JsonFields::write(nlohmann::json& spec, const std::vector<std::string>& sections) const {
    for (const Field& f : fields_) {
        const auto dot = f.path.find('.');
        const std::string section = dot == std::string::npos ? "" : f.path.substr(0, dot);
        if (!section.empty() &&
            std::find(sections.begin(), sections.end(), section) == sections.end())
            continue;
        nlohmann::json v = value(f);
        if (!v.is_null()) spec[json_pointer(f.path)] = std::move(v);
    }
}

void JsonFields::read(const nlohmann::json& spec) const {
    for (const Field& f : fields_) {
        const auto ptr = json_pointer(f.path);
        set(f, spec.contains(ptr) ? spec.at(ptr) : nlohmann::json());
    }
}

QWidget* JsonFields::find(const std::string& path) const {
    std::string p = path;
    while (!p.empty()) {
        for (const Field& f : fields_)
            if (f.path == p) return f.widget;
        const auto cut = p.find_last_of(".[");
        if (cut == std::string::npos) break;
        p.resize(cut);
    }
    return nullptr;
}

std::vector<std::pair<std::string, QWidget*>> JsonFields::below(const std::string& path) const {
    std::vector<std::pair<std::string, QWidget*>> out;
    const std::string prefix = path + ".";
    for (const Field& f : fields_)
        if (f.path.rfind(prefix, 0) == 0) out.emplace_back(f.path.substr(prefix.size()), f.widget);
    return out;
}

std::vector<std::string> JsonFields::paths(Type type) const {
    std::vector<std::string> out;
    for (const Field& f : fields_)
        if (f.type == type) out.push_back(f.path);
    return out;
}

std::vector<QWidget*> JsonFields::widgets() const {
    std::vector<QWidget*> out;
    for (const Field& f : fields_)
        out.push_back(f.widget);
    return out;
}

}  // namespace perflab
