// SPDX-License-Identifier: MIT
#include "store_writer.h"

#include <sys/resource.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "database.h"
#include "model/secrets.h"
#include "process_stamp.h"
#include "sample_rows.h"

namespace perflab {

namespace {

int64_t wall_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

void link_host(Connection& db, int64_t run, int64_t host, const std::string& role) {
    Statement q(db, "INSERT OR IGNORE INTO run_hosts (run_id, host_id, role) VALUES (?1, ?2, ?3)");
    q.bind(1, run).bind(2, host).bind(3, role);
    q.run();
}

int64_t create_run(Connection& db, const RunSpec& spec) {
    const ProcessStamp me = current_process();
    Statement q(db,
                "INSERT INTO runs (name, kind, spec_json, notes, status, started_at_ms, "
                "writer_pid, writer_start) VALUES (?1, ?2, ?3, ?4, 'running', ?5, ?6, ?7)");
    q.bind(1, spec.name).bind(2, to_string(spec.kind));
    q.bind(3, masked_for_storage(to_json(spec)).dump());
    q.bind(4, spec.notes).bind(5, wall_ms()).bind(6, me.pid).bind(7, me.start);
    q.run();
    const int64_t run = db.last_insert_id();
    Statement tag(db, "INSERT OR IGNORE INTO run_tags (run_id, tag) VALUES (?1, ?2)");
    for (const auto& t : spec.tags) {
        tag.bind(1, run).bind(2, t);
        tag.run();
    }
    return run;
}

}  // namespace

int64_t store_host(Connection& db, const HardwareProfile& profile) {
    const std::string identity = profile.identity();
    Statement insert(db,
                     "INSERT OR IGNORE INTO hosts (identity, hostname, profile_json) "
                     "VALUES (?1, ?2, ?3)");
    insert.bind(1, identity).bind(2, profile.hostname).bind(3, to_json(profile).dump());
    insert.run();
    Statement find(db, "SELECT id FROM hosts WHERE identity = ?1");
    find.bind(1, identity);
    const int64_t id = find.step() ? find.integer(0) : 0;
    find.run();
    return id;
}

StoreWriter::StoreWriter(const std::string& db_path, const RunSpec& spec,
                         const HardwareProfile& client)
    : db_(open_database(db_path, Access::write)) {
    Transaction tx(*db_);
    run_id_ = create_run(*db_, spec);
    link_host(*db_, run_id_, store_host(*db_, client), "client");
    tx.commit();
    thread_ = std::thread([this] { loop(); });
}

StoreWriter::~StoreWriter() {
    finish();
}

void StoreWriter::push(Item item, bool wake) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return;
        queue_.push_back(std::move(item));
    }
    if (wake) wake_.notify_one();
}

void StoreWriter::on_start(const RunSpec&) {
    push(Start{wall_ms()}, false);
}

// started_at_ms is where the stored times count from, so an nmon capture or a JMeter file
// imported beside the run lands on the same second as its ticks.
void StoreWriter::on_clock(int64_t wall) {
    push(Start{wall}, false);
}

void StoreWriter::on_sample(const IntervalSample& sample) {
    push(sample, true);
}

void StoreWriter::on_event(const RunEvent& event) {
    push(event, false);
}

void StoreWriter::on_probe_sample(const ProbeSample& sample) {
    push(sample, false);
}

void StoreWriter::on_phase_end(const PhaseTotals& phase) {
    push(phase, true);
}

void StoreWriter::on_end(const RunSummary& summary) {
    push(End{summary, wall_ms()}, true);
}

void StoreWriter::add_host(const HardwareProfile& profile, const std::string& role) {
    push(Host{profile, role}, false);
}

std::string StoreWriter::finish() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) thread_.join();
    return error_;
}

void StoreWriter::loop() {
    std::vector<Item> batch;
    for (;;) {
        bool last = false;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            batch.swap(queue_);
            last = stopping_;
        }
        // After a write error the run keeps going; what follows is dropped, and finish()
        // reports the first error.
        if (!batch.empty() && error_.empty()) {
            try {
                write(batch);
            } catch (const std::exception& e) {
                error_ = e.what();
            }
        }
        batch.clear();
        if (last) {
            std::lock_guard lock(mutex_);
            if (queue_.empty()) break;
        }
    }
    rusage usage{};
    getrusage(RUSAGE_THREAD, &usage);
    writer_cpu_s_ = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                    double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

void StoreWriter::write(const std::vector<Item>& batch) {
    Transaction tx(*db_);
    RunRows rows(*db_);
    for (const Item& item : batch) {
        if (const auto* s = std::get_if<IntervalSample>(&item)) {
            rows.sample(run_id_, seq_++, *s);
        } else if (const auto* e = std::get_if<RunEvent>(&item)) {
            rows.event(run_id_, *e);
        } else if (const auto* p = std::get_if<ProbeSample>(&item)) {
            Statement q(*db_,
                        "INSERT INTO probe_samples (run_id, t_ms, source, kind, values_json, gap) "
                        "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
            q.bind(1, run_id_).bind(2, p->t_ms).bind(3, p->source).bind(4, p->kind);
            q.bind(5, p->values.dump()).bind(6, int64_t{p->gap});
            q.run();
        } else if (const auto* ph = std::get_if<PhaseTotals>(&item)) {
            rows.phase(run_id_, *ph);
        } else if (const auto* end = std::get_if<End>(&item)) {
            rows.finish(run_id_, end->summary, end->wall_ms);
        } else if (const auto* start = std::get_if<Start>(&item)) {
            Statement q(*db_, "UPDATE runs SET started_at_ms = ?2 WHERE id = ?1");
            q.bind(1, run_id_).bind(2, start->wall_ms);
            q.run();
        } else if (const auto* host = std::get_if<Host>(&item)) {
            link_host(*db_, run_id_, store_host(*db_, host->profile), host->role);
        }
    }
    tx.commit();
}

}  // namespace perflab
