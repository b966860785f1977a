// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

class QWidget;

namespace perflab {

// Binds form widgets to spec fields by their path ("cache.keys.count"), the same path the
// validator names in its errors, so one table serves filling the form from a spec, building
// the spec's JSON from the form, and finding the widget an error is about.
class JsonFields {
  public:
    enum class Type {
        text,    // QLineEdit or QPlainTextEdit; empty leaves the field out (its default)
        number,  // QLineEdit; a non-number goes through as text so the validator names it
        list,    // QLineEdit of comma-separated strings
        choice,  // QComboBox of the enum's names
        flag,    // QCheckBox
    };

    void bind(const std::string& path, QWidget* widget, Type type);
    // Writes every bound field whose path starts with one of `sections` (or has no dot).
    void write(nlohmann::json& spec, const std::vector<std::string>& sections) const;
    void read(const nlohmann::json& spec) const;
    // The widget bound to `path` or to its nearest parent path ("cache.servers[1]" finds
    // "cache.servers"); nullptr when none.
    QWidget* find(const std::string& path) const;
    // The fields under an object's path, each with the path's rest: "cache.value_size" gives
    // "min", "max" and "bytes".
    std::vector<std::pair<std::string, QWidget*>> below(const std::string& path) const;
    std::vector<std::string> paths(Type type) const;
    std::vector<QWidget*> widgets() const;

    // Text → JSON value: numbers and true/false become JSON's, anything else stays text.
    static nlohmann::json scalar(const QString& text);
    static QString text(const nlohmann::json& value);

  private:
    struct Field {
        std::string path;
        QWidget* widget;
        Type type;
    };
    static nlohmann::json value(const Field& f);
    static void set(const Field& f, const nlohmann::json& value);
    std::vector<Field> fields_;
};

// "a.b[2].c" → "/a/b/2/c"
nlohmann::json::json_pointer json_pointer(const std::string& path);

}  // namespace perflab
