// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "json_fields.h"
#include "metatypes.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QFrame;
class QGroupBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QShowEvent;

namespace perflab {

class CommandPreview;
class PhasePreview;
struct SavedHost;
class RequestPreview;
class RowTable;
class TargetDetails;

// Sets up a run: every spec field of cache and HTTP runs, the phases with a preview, the
// probes. The form's JSON goes through parse_spec on every edit: the fields it names are
// highlighted with its message and Start stays disabled until the spec is valid; the messages
// sit above the scrolling fields in a box of fixed height, table rows counted from 1, and a
// loaded spec scrolls to its first wrong field. Files are the same JSON `perflab run` takes;
// the form remembers the file it was read from or saved to.
class SpecForm : public QWidget {
    Q_OBJECT
  public:
    explicit SpecForm(QWidget* parent = nullptr);
    // "Find max rate": the search fields replace the phases.
    QCheckBox* searchModeBox() const { return searchMode_; }
    ~SpecForm() override;

    nlohmann::json json() const;
    // Fills the form from a spec's JSON (normalised first when it is valid).
    void setJson(const nlohmann::json& spec);
    bool loadFile(const QString& path, QString* error);
    // Literal credentials are written masked (model/secrets.h), ${NAME} references as typed.
    bool saveFile(const QString& path, QString* error);
    // The file the spec was last read from or saved to; empty for a template or a spec set
    // otherwise (File → Save asks for a name then).
    const QString& filePath() const { return filePath_; }
    // Templates shipped in the resources (":/specs/*.json").
    static QStringList templates();
    bool loadTemplate(const QString& resource, QString* error);

    bool isValid() const { return spec_.has_value(); }
    const std::optional<RunSpec>& spec() const { return spec_; }
    // The validator's errors, one a line, rows counted from 1; empty when the spec is valid.
    QString errorText() const;
    QPushButton* startButton() const { return start_; }
    // The widget a spec path names (also its objectName), for tests and focus.
    QWidget* field(const std::string& path) const { return fields_.find(path); }
    // The saved SSH hosts the probes group offers to add (from the Hosts view).
    void setSavedHosts(const std::vector<SavedHost>& hosts);
    void addProbe(const ProbeSpec& probe);
    void addAgent(const ProbeSpec& host);
    QPushButton* savedHostsButton() const { return savedHosts_; }

  public slots:
    void validate();

  protected:
    void showEvent(QShowEvent* event) override;

  signals:
    void startRequested(const perflab::RunSpec& spec);
    void validityChanged(bool valid);

  private:
    QGroupBox* setupRunGroup();
    QGroupBox* setupScheduleGroup();
    QGroupBox* setupCacheGroup();
    QGroupBox* setupHttpGroup();
    QGroupBox* setupProbesGroup();
    QGroupBox* setupAgentsGroup();
    QGroupBox* setupObjectivesGroup();
    void updateMode();
    QWidget* setupErrors();
    QWidget* setupActions();
    void setupTemplates(QLayout* layout);
    template <class W>
    W* add(QFormLayout* form, const QString& label, const std::string& path, JsonFields::Type type,
           W* widget);
    QWidget* addNumber(QFormLayout* form, const QString& label, const std::string& path,
                       const QString& placeholder);
    QComboBox* addChoice(QFormLayout* form, const QString& label, const std::string& path,
                         const QStringList& names);
    void setupRedisFields(QFormLayout* form);
    void trimRedis(nlohmann::json& cache) const;
    void updateKind();
    void showErrors(const std::vector<SpecError>& errors);
    void clearErrors();
    // The field or table an error names; null for a path the form has no widget for.
    QWidget* errorWidget(const SpecError& error) const;
    std::vector<QWidget*> errorFields(const SpecError& error) const;
    void revealFirstError();
    void revealIfShown();
    // The target the details and the request preview are about: the table's current row,
    // else the first; -1 when there is none.
    int selectedTarget() const;
    void showTarget();
    void storeTargetDetails();
    void showTargetErrors();
    void updateRequestPreview(const nlohmann::json& spec);

    JsonFields fields_;
    QComboBox* kind_ = nullptr;
    QGroupBox* cache_ = nullptr;
    QGroupBox* http_ = nullptr;
    QGroupBox* schedule_ = nullptr;
    QCheckBox* searchMode_ = nullptr;
    QWidget* searchFields_ = nullptr;
    RowTable* phases_ = nullptr;
    RowTable* commands_ = nullptr;
    CommandPreview* commandPreview_ = nullptr;
    RowTable* targets_ = nullptr;
    RowTable* session_ = nullptr;
    TargetDetails* targetDetails_ = nullptr;
    RequestPreview* requestPreview_ = nullptr;
    RowTable* probes_ = nullptr;
    QPushButton* savedHosts_ = nullptr;
    RowTable* agents_ = nullptr;
    QPushButton* savedAgents_ = nullptr;
    QCheckBox* stopOnAgentLoss_ = nullptr;
    QCheckBox* redisTls_ = nullptr;
    QCheckBox* redisTlsVerify_ = nullptr;
    PhasePreview* preview_ = nullptr;
    QScrollArea* scroll_ = nullptr;
    QFrame* errorBox_ = nullptr;
    QLabel* errors_ = nullptr;
    QString errorText_;
    QString filePath_;
    QPushButton* start_ = nullptr;
    std::optional<RunSpec> spec_;
    std::vector<SpecError> errorList_;
    bool filling_ = false;
    bool revealPending_ = false;
};

}  // namespace perflab
