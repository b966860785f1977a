// SPDX-License-Identifier: MIT
#pragma once

// Each QTest class runs as its own ctest test: `ui_tests <class>`.
int run_spec_form_test(int argc, char** argv);
int run_live_run_test(int argc, char** argv);
int run_slo_view_test(int argc, char** argv);
int run_tick_text_test(int argc, char** argv);
int run_chart_export_test(int argc, char** argv);
int run_compare_test(int argc, char** argv);
int run_history_test(int argc, char** argv);
int run_hosts_test(int argc, char** argv);
int run_time_chart_test(int argc, char** argv);
int run_secrets_test(int argc, char** argv);
int run_window_guard_test(int argc, char** argv);
int run_window_keys_test(int argc, char** argv);
int run_quick_start_test(int argc, char** argv);
int run_no_redis_server_test(int argc, char** argv);
