// SPDX-License-Identifier: MIT
#pragma once

#include <QPlainTextEdit>
#include <cstdint>
#include <nlohmann/json.hpp>

namespace perflab {

// A target's first three requests as a one-thread run with `seed` sends them ({{seq}} 0, 1,
// 2), rendered by the engine's own compiled templates (http/request_template.h), CSV files
// loaded as the engine loads them. `http` is the form's "http" section; `row` counts from 0.
// A target the engine would refuse gives the refusal instead, named as the form names it.
QString render_requests(const nlohmann::json& http, int row, uint64_t seed);

// Read-only, so the preview is never mistaken for an editor of the request.
class RequestPreview : public QPlainTextEdit {
    Q_OBJECT
  public:
    explicit RequestPreview(QWidget* parent = nullptr);
    void preview(const nlohmann::json& http, int row, uint64_t seed);
};

}  // namespace perflab
