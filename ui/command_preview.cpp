// SPDX-License-Identifier: MIT
#include "command_preview.h"

#include <QFontDatabase>
#include <QStringList>
#include <algorithm>
#include <charconv>
#include <numeric>

#include "cache/command_program.h"
#include "cache/key_chooser.h"
#include "model/run_seed.h"

namespace perflab {

namespace {

constexpr size_t kShownWord = 40;  // a longer word (a value) is shown as its size

bool printable(std::string_view word) {
    return std::all_of(word.begin(), word.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

// The words of one rendered RESP array ("*3\r\n$4\r\nHSET\r\n..."), as a command line.
QString words_text(std::string_view resp) {
    QStringList words;
    size_t at = resp.find("\r\n") + 2;
    while (at < resp.size() && resp[at] == '$') {
        const size_t eol = resp.find("\r\n", at);
        size_t length = 0;
        if (std::from_chars(resp.data() + at + 1, resp.data() + eol, length).ec != std::errc())
            break;
        const std::string_view word = resp.substr(eol + 2, length);
        if (word.size() > kShownWord || !printable(word))
            words << QStringLiteral("‹%1 B›").arg(word.size());
        else
            words << QString::fromUtf8(word.data(), qsizetype(word.size()));
        at = eol + 2 + length + 2;
    }
    return words.join(QLatin1Char(' '));
}

}  // namespace

QString render_commands(const CacheSpec& cache, uint64_t seed) {
    if (cache.commands.empty()) return {};
    const CommandProgram program(cache.commands);
    auto state = program.state(stream_seed(seed, 0, Stream::templates), 0, 1);
    KeyChooser keys(cache.keys, stream_seed(seed, 0, Stream::keys));
    ValueSource values(cache.value_size, stream_seed(seed, 0, Stream::values));
    const auto& weights = program.weights();
    const double total = double(std::accumulate(weights.begin(), weights.end(), int64_t{0}));
    QStringList lines;
    for (size_t c = 0; c < program.size(); ++c) {
        OutBuffer out(1024);
        program.render(c, out, program.keyed(c) ? keys.next() : program.route(c), values, state);
        lines << QStringLiteral("%1 (%2%): %3")
                     .arg(QString::fromStdString(program.names()[c]))
                     .arg(100.0 * double(weights[c]) / total, 0, 'f', 1)
                     .arg(words_text({out.data(), out.size()}));
    }
    return lines.join(QLatin1Char('\n'));
}

CommandPreview::CommandPreview(QWidget* parent) : QPlainTextEdit(parent) {
    setObjectName(QStringLiteral("commandPreview"));
    setReadOnly(true);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setMaximumHeight(90);
    setPlaceholderText(tr("Each command, its share of the ops and one it sends"));
}

void CommandPreview::preview(const CacheSpec* cache, uint64_t seed) {
    setPlainText(cache ? render_commands(*cache, seed) : QString());
}

}  // namespace perflab
