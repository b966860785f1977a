// SPDX-License-Identifier: MIT
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <utility>

#include "run_store.h"

namespace perflab {

// Runs queries on the run store off the GUI thread, each on a connection of its own, and
// hands the answer back on the GUI thread. A newer request makes older answers stale: they
// are dropped, so a slow query can never overwrite what a later one showed.
class StoreQuery : public QObject {
  public:
    explicit StoreQuery(std::string dbPath, QObject* parent = nullptr)
        : QObject(parent), path_(std::move(dbPath)) {}

    const std::string& path() const { return path_; }

    // query(RunStore&) -> R runs on a pool thread; done(R) or failed(QString) on this
    // object's thread, only if no later submit() happened meanwhile.
    template <class Query, class Done, class Failed>
    void submit(Query query, Done done, Failed failed) {
        using Result = decltype(query(std::declval<RunStore&>()));
        struct Answer {
            std::optional<Result> value;
            QString error;
        };
        const uint64_t generation = ++generation_;
        auto* watcher = new QFutureWatcher<Answer>(this);
        connect(watcher, &QFutureWatcherBase::finished, this,
                [this, watcher, generation, done = std::move(done), failed = std::move(failed)] {
                    watcher->deleteLater();
                    if (generation != generation_) return;
                    Answer answer = watcher->result();
                    if (answer.value)
                        done(std::move(*answer.value));
                    else
                        failed(answer.error);
                });
        watcher->setFuture(QtConcurrent::run([path = path_, query = std::move(query)] {
            Answer answer;
            try {
                RunStore store(path, Access::write);
                answer.value.emplace(query(store));
            } catch (const std::exception& e) {
                answer.error = QString::fromStdString(e.what());
            }
            return answer;
        }));
    }

    // Makes every answer still on its way stale.
    void cancel() { ++generation_; }

  private:
    std::string path_;
    uint64_t generation_ = 0;
};

}  // namespace perflab
