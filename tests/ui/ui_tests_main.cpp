// SPDX-License-Identifier: MIT
#include <QApplication>
#include <QStandardPaths>
#include <cstdio>
#include <cstring>

#include "metatypes.h"
#include "resources.h"
#include "ui_tests.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("PerfLabTest"));
    QStandardPaths::setTestModeEnabled(true);  // QSettings away from the user's own
    perflab::register_metatypes();
    perflab::init_resources();
    const struct {
        const char* name;
        int (*run)(int, char**);
    } tests[] = {{"SpecFormTest", run_spec_form_test},
                 {"LiveRunTest", run_live_run_test},
                 {"ChartExportTest", run_chart_export_test},
                 {"CompareTest", run_compare_test},
                 {"HistoryTest", run_history_test},
                 {"HostsTest", run_hosts_test},
                 {"TimeChartTest", run_time_chart_test},
                 {"SecretsTest", run_secrets_test},
                 {"SloViewTest", run_slo_view_test},
                 {"TickTextTest", run_tick_text_test},
                 {"WindowGuardTest", run_window_guard_test},
                 {"WindowKeysTest", run_window_keys_test},
                 {"QuickStartTest", run_quick_start_test},
                 {"NoRedisServerTest", run_no_redis_server_test}};
    // QTest sees the arguments after the class name (a test function, -v2...).
    for (const auto& t : tests)
        if (argc > 1 && std::strcmp(argv[1], t.name) == 0) {
            argv[1] = argv[0];
            return t.run(argc - 1, argv + 1);
        }
    std::fprintf(stderr,
                 "usage: ui_tests TEST_CLASS [QTest args]; classes: SpecFormTest LiveRunTest "
                 "ChartExportTest CompareTest HistoryTest HostsTest TimeChartTest SecretsTest "
                 "SloViewTest TickTextTest WindowGuardTest WindowKeysTest QuickStartTest "
                 "NoRedisServerTest\n");
    return 2;
}
