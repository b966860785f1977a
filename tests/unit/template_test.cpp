// SPDX-License-Identifier: MIT
// Every run spec PerfLab ships (the GUI's templates, resources/specs) must stay valid as the
// spec grows, and every one of them must be in the resource file the GUI loads them from.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "model/spec.h"

namespace {

const std::filesystem::path kSpecs = std::filesystem::path(PERFLAB_SOURCE_DIR) / "resources/specs";

std::vector<std::filesystem::path> shipped_templates() {
    std::vector<std::filesystem::path> out;
    for (const auto& entry : std::filesystem::directory_iterator(kSpecs))
        if (entry.path().extension() == ".json") out.push_back(entry.path());
    return out;
}

std::string read(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST(Templates, ThereAreSome) {
    EXPECT_GE(shipped_templates().size(), 4u);
}

TEST(Templates, EveryShippedTemplateParses) {
    for (const auto& path : shipped_templates()) {
        const perflab::SpecResult r = perflab::load_spec_file(path.string());
        EXPECT_TRUE(r) << path << ":\n" << r.error_text();
        if (r) {
            // Phases, or a search that makes them.
            EXPECT_NE(r.spec->phases.empty(), !r.spec->search) << path;
        }
    }
}

TEST(Templates, EveryTemplateIsInTheResourceFile) {
    const std::string qrc = read(kSpecs.parent_path() / "perflab.qrc");
    for (const auto& path : shipped_templates())
        EXPECT_NE(qrc.find("<file>specs/" + path.filename().string() + "</file>"),
                  std::string::npos)
            << path.filename() << " is missing from resources/perflab.qrc";
}

}  // namespace
