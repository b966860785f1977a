// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace perflab {

// Why a user's regular expression is refused before std::regex compiles it, or nullopt.
// libstdc++'s compiler reads a repetition count ("a{20}") and a back-reference's number
// ("\12") into a long with no bound — past its range that is undefined behaviour (found by
// fuzzing the spec parser) — and expands a count into as many states: either over 1000 is
// refused.
std::optional<std::string> regex_refusal(std::string_view pattern);

}  // namespace perflab
