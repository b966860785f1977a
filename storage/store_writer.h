// SPDX-License-Identifier: MIT
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "model/observer.h"
#include "remote/hardware_profile.h"
#include "sqlite.h"

namespace perflab {

// Stores a run as it happens. The constructor creates the run (status `running`) with the
// spec and the client's hardware profile, so its id is known before the run starts. The
// observer calls only queue values: a writer thread, owning its own connection, commits one
// transaction per tick (a sample, a phase end or the end wakes it; events and probe samples
// ride along). A killed process therefore loses at most the tick being written.
class StoreWriter : public RunObserver {
  public:
    // Throws StoreError when the database cannot be opened or written.
    StoreWriter(const std::string& db_path, const RunSpec& spec, const HardwareProfile& client);
    ~StoreWriter() override;
    StoreWriter(const StoreWriter&) = delete;
    StoreWriter& operator=(const StoreWriter&) = delete;

    int64_t run_id() const { return run_id_; }

    void on_start(const RunSpec& spec) override;
    void on_clock(int64_t wall_ms) override;
    void on_sample(const IntervalSample& sample) override;
    void on_event(const RunEvent& event) override;
    void on_probe_sample(const ProbeSample& sample) override;
    void on_phase_end(const PhaseTotals& phase) override;
    void on_end(const RunSummary& summary) override;
    // A host under test (the probes' remote hosts), stored once per identity.
    void add_host(const HardwareProfile& profile, const std::string& role);

    // Writes what is queued and stops the writer thread; returns the first write error, or
    // an empty string. Called by the destructor too.
    std::string finish();
    // CPU seconds the writer thread used, known once finish() returned.
    double writer_cpu_seconds() const { return writer_cpu_s_; }

  private:
    struct Start {
        int64_t wall_ms;
    };
    struct End {
        RunSummary summary;
        int64_t wall_ms;
    };
    struct Host {
        HardwareProfile profile;
        std::string role;
    };
    using Item = std::variant<Start, IntervalSample, RunEvent, ProbeSample, PhaseTotals, End, Host>;

    void push(Item item, bool wake);
    void loop();
    void write(const std::vector<Item>& batch);

    std::unique_ptr<Connection> db_;
    int64_t run_id_ = 0;
    int64_t seq_ = 0;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::vector<Item> queue_;
    bool stopping_ = false;
    std::string error_;
    double writer_cpu_s_ = 0;
    std::thread thread_;
};

// Stores a host's profile once per identity and returns its id.
int64_t store_host(Connection& db, const HardwareProfile& profile);

}  // namespace perflab
