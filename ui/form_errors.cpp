// SPDX-License-Identifier: MIT
#include "form_errors.h"

#include <QObject>
#include <cstdlib>

#include "model/spec.h"

namespace perflab {

bool table_path(const std::string& path, const std::string& prefix, int* row, std::string* rest) {
    if (path.rfind(prefix + "[", 0) != 0) return false;
    const auto close = path.find(']', prefix.size());
    if (close == std::string::npos) return false;
    *row = std::atoi(path.c_str() + prefix.size() + 1);
    *rest = path.substr(close + 1);
    return true;
}

QString row_error(const QString& noun, int row, const std::string& rest,
                  const std::string& message) {
    const std::string field = !rest.empty() && rest.front() == '.' ? rest.substr(1) : rest;
    return QObject::tr("%1 %2%3: %4")
        .arg(noun)
        .arg(row + 1)
        .arg(field.empty() ? QString() : QStringLiteral(", ") + QString::fromStdString(field),
             QString::fromStdString(message));
}

QString form_error_text(const SpecError& error, const std::vector<std::string>& lists) {
    const struct {
        const char* prefix;
        const char* noun;
    } tables[] = {
        {"phases", QT_TR_NOOP("phase")},        {"cache.commands", QT_TR_NOOP("command")},
        {"http.targets", QT_TR_NOOP("target")}, {"http.session", QT_TR_NOOP("session step")},
        {"probes", QT_TR_NOOP("probe")},        {"agents", QT_TR_NOOP("agent")}};
    int row = 0;
    std::string rest;
    for (const auto& t : tables)
        if (table_path(error.path, t.prefix, &row, &rest))
            return row_error(QObject::tr(t.noun), row, rest, error.message);
    for (const std::string& list : lists)
        if (table_path(error.path, list, &row, &rest))
            return QObject::tr("%1, item %2%3: %4")
                .arg(QString::fromStdString(list))
                .arg(row + 1)
                .arg(QString::fromStdString(rest), QString::fromStdString(error.message));
    return QString::fromStdString(error.text());
}

}  // namespace perflab
