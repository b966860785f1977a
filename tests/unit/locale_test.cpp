// SPDX-License-Identifier: MIT
// Files, reports, imports, templates and probe readings are the same whatever the process's
// locale: the desktop app runs under the user's, and de_DE.UTF-8 writes 1600,0 for 1600.0.
#include <gtest/gtest.h>

#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "hgrm_export.h"
#include "hlog_export.h"
#include "import_hlog.h"
#include "jvm_probe.h"
#include "memcached_probe.h"
#include "model/cache_report.h"
#include "model/format.h"
#include "model/summary_report.h"
#include "model/template_syntax.h"
#include "process.h"
#include "remote/hardware_profile.h"
#include "run_import.h"
#include "run_report.h"
#include "stored_runs.h"

namespace perflab {
namespace {

constexpr const char* kGerman = "de_DE.UTF-8";

class GermanLocale : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        // A fresh machine has the definitions (Debian's `locales`) but no compiled locale.
        // Compiled into the system's archive, it stays unseen by this process (the C library
        // keeps the archive it mapped), so it goes into a directory of the test's own, which
        // LOCPATH names for every setlocale from here on.
        if (!std::setlocale(LC_ALL, kGerman)) {
            static const test::TempDir compiled;
            const auto r =
                test::run({"localedef", "-i", "de_DE", "-f", "UTF-8", compiled.file(kGerman)});
            ASSERT_EQ(r.code, 0) << r.out << r.err;
            setenv("LOCPATH", compiled.path().c_str(), 1);
        }
        std::setlocale(LC_ALL, "C");
    }
    void SetUp() override {
        ASSERT_NE(std::setlocale(LC_ALL, kGerman), nullptr) << "localedef made no " << kGerman;
        // The C library really writes ',' now: otherwise the test could not fail.
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f", 1600.0);
        ASSERT_STREQ(buf, "1600,0");
        std::setlocale(LC_ALL, "C");
    }
    void TearDown() override { std::setlocale(LC_ALL, "C"); }

    // `make`'s result under the C locale and under the German one.
    template <class F>
    static auto both(F&& make) {
        std::setlocale(LC_ALL, "C");
        auto c = make();
        std::setlocale(LC_ALL, kGerman);
        auto german = make();
        std::setlocale(LC_ALL, "C");
        return std::make_pair(std::move(c), std::move(german));
    }
};

std::string fixture(const std::string& name) {
    return test::read_file(std::string(PERFLAB_SOURCE_DIR) + "/tests/fixtures/probes/" + name);
}

TEST_F(GermanLocale, NumbersAreFormattedAndParsedWithAPoint) {
    const auto [c, german] = both([] {
        return format_fixed(1600.0, 1) + " " + format_fixed(0.5, 3, 8) + " " +
               format_latency_us(4321) + " " + format_bytes(3 << 20);
    });
    EXPECT_EQ(c, "1600.0    0.500 4.32ms 3.00m");
    EXPECT_EQ(german, c);
    const auto [pc, pg] = both([] { return parse_number(" 2400.125 ").value_or(-1); });
    EXPECT_EQ(pc, 2400.125);
    EXPECT_EQ(pg, 2400.125);
}

TEST_F(GermanLocale, ExportsAreTheSameBytes) {
    test::TempDir dir;
    const std::string db = dir.file("runs.db");
    const auto written = test::write_run(db, 6);
    RunStore store(db, Access::read);
    const auto [c, german] = both([&] {
        const RunReport report = load_report(store, written.id);
        std::vector<std::string> files = {
            ticks_csv(store.samples(written.id), RunKind::cache),
            report_text(report),
            report_markdown(report),
            report_html(report),
            report_json(report).dump(),
            export_json(store, written.id).dump(),
            hlog_text(store.info(written.id), store.samples(written.id)),
            cache_report_text(written.summary),
            summary_text(written.summary),
        };
        for (const auto& [name, h] : hgrm_histograms(written.summary))
            files.push_back(name + "\n" + hgrm_text(h));
        return files;
    });
    ASSERT_EQ(c.size(), german.size());
    for (size_t i = 0; i < c.size(); ++i)
        EXPECT_EQ(german[i], c[i]) << "file " << i;
    // The CSV keeps its columns: no field gained a comma.
    std::istringstream csv(c[0]);
    std::string header, row;
    ASSERT_TRUE(std::getline(csv, header) && std::getline(csv, row));
    EXPECT_EQ(std::count(row.begin(), row.end(), ','),
              std::count(header.begin(), header.end(), ','));
}

TEST_F(GermanLocale, AnHlogImportsAlike) {
    test::TempDir dir;
    const auto written = test::write_run(dir.file("runs.db"), 4);
    std::string text;
    {
        RunStore store(dir.file("runs.db"), Access::read);
        text = hlog_text(store.info(written.id), store.samples(written.id));
    }
    std::ofstream(dir.file("run.hlog")) << text;
    const auto [c, german] = both([&] {
        std::istringstream in(text);
        HlogRun run = read_hlog(in);
        std::string figures = std::to_string(run.start_ms());
        run.drain([&figures](IntervalSample&& t) {
            for (const auto& [name, op] : t.ops)
                figures += " " + name + ":" + std::to_string(op.latency.count()) + "/" +
                           std::to_string(op.latency.percentile(99));
        });
        return figures;
    });
    EXPECT_EQ(german, c);
    std::setlocale(LC_ALL, kGerman);
    ImportOptions options;
    options.file = dir.file("run.hlog");
    const ImportResult r = import_run(dir.file("imported.db"), options);
    std::setlocale(LC_ALL, "C");
    EXPECT_EQ(r.format, "hlog");
    EXPECT_EQ(r.requests, written.summary.overall.totals.total_ops());
}

TEST_F(GermanLocale, TemplatesTakeAFractionalExponent) {
    const auto [c, german] = both([] {
        std::string error;
        parse_template("key:{{zipf 1000 0.99}}", error);
        return error;
    });
    EXPECT_EQ(c, "");
    EXPECT_EQ(german, "");
}

TEST_F(GermanLocale, ProbeReadingsKeepTheirFractions) {
    const auto [c, german] = both([] {
        const auto stats = parse_memcached_stats(fixture("memcached_stats.txt"));
        auto later = stats;
        later["rusage_user"] = "12.750000";
        later["rusage_system"] = "3.250000";
        std::istringstream in(fixture("jstat_g1.txt"));
        std::string head, first, second;
        std::getline(in, head);
        std::getline(in, first);
        std::getline(in, second);
        std::istringstream h(head);
        std::vector<std::string> header;
        for (std::string w; h >> w;)
            header.push_back(w);
        HardwareProfile profile;
        parse_cpuinfo("processor\t: 0\nmodel name\t: Test\ncpu MHz\t\t: 2400.125\n", profile);
        return memcached_values(stats, later, 1.0).dump() + "\n" +
               jvm_values(parse_jstat_line(header, first), parse_jstat_line(header, second))
                   .dump() +
               "\n" + std::to_string(profile.mhz == 2400.125);
    });
    EXPECT_EQ(german, c);
    EXPECT_NE(c.find("\"eden_pct\":85.71"), std::string::npos) << c;
    EXPECT_EQ(c.back(), '1');
}

}  // namespace
}  // namespace perflab
