// Misère play: Bouton's rule for Nim, and a memoised search for every other code game.

#include <algorithm>
#include <string>
#include <unordered_map>

#include "sgx/solve.hpp"

namespace sgx {

namespace {

// Heaps are at most this many tokens in a search, so one byte holds each and a position is a
// short string: cheap to hash, and small ones need no allocation.
constexpr std::uint64_t kMaxTokenLimit = 255;

using State = std::string;  // heap sizes as unsigned chars, sorted, no empty or dead heaps

void sort_state(State& state) {
  std::sort(state.begin(), state.end(),
            [](char a, char b) { return static_cast<unsigned char>(a) < static_cast<unsigned char>(b); });
}

std::uint64_t heap_at(const State& state, std::size_t i) { return static_cast<unsigned char>(state[i]); }

std::string too_many_tokens(std::uint64_t limit, const std::string& tokens) {
  std::string message = "misère search is limited to positions of at most ";
  message.append(std::to_string(limit)).append(" tokens here (this position has ").append(tokens).append(")");
  return message;
}

}  // namespace

std::uint64_t misere_nim_value(const std::vector<std::uint64_t>& heaps) {
  std::uint64_t nim_sum = 0;
  bool all_small = true;
  for (std::uint64_t heap : heaps) {
    nim_sum ^= heap;
    all_small = all_small && heap <= 1;
  }
  return all_small ? nim_sum ^ 1 : nim_sum;
}

struct MisereSearch::Memo {
  // options[h]: every option of a heap of h tokens, dead heaps already dropped from each.
  std::vector<std::vector<State>> options;
  std::unordered_map<State, std::uint64_t> values;
};

MisereSearch::MisereSearch(Rules rules, std::uint64_t token_limit, std::uint64_t entry_limit)
    : rules_(std::move(rules)), token_limit_(token_limit), entry_limit_(entry_limit), memo_(std::make_unique<Memo>()) {
  if (token_limit_ > kMaxTokenLimit) throw std::invalid_argument("MisereSearch: token limit above 255");
  // A heap with no move is a game with no options: adding it changes no game tree, so it is
  // dropped. That keeps the memo small (0.07 leaves many heaps of 1).
  std::vector<bool> dead(token_limit_ + 1);
  memo_->options.resize(token_limit_ + 1);
  for (std::uint64_t heap = 0; heap <= token_limit_; ++heap) {
    for (const auto& parts : heap_options(rules_, heap)) {
      State option;
      for (std::uint64_t part : parts)
        if (!dead[part]) option.push_back(static_cast<char>(part));
      memo_->options[heap].push_back(option);
    }
    dead[heap] = memo_->options[heap].empty();
  }
}

MisereSearch::~MisereSearch() = default;

std::uint64_t MisereSearch::positions_searched() const { return memo_->values.size(); }

std::uint64_t MisereSearch::value(const std::vector<std::uint64_t>& heaps) {
  std::uint64_t tokens = 0;
  bool overflow = false;
  for (std::uint64_t heap : heaps) {
    overflow = overflow || heap > UINT64_MAX - tokens;
    tokens += overflow ? 0 : heap;
  }
  if (overflow || tokens > token_limit_)
    throw SolveError(too_many_tokens(token_limit_, overflow ? "more than 2^64" : std::to_string(tokens)));
  State state;
  for (std::uint64_t heap : heaps)
    if (!memo_->options[heap].empty()) state.push_back(static_cast<char>(heap));
  sort_state(state);
  return search(state);
}

std::uint64_t MisereSearch::search(const std::string& state) {
  // The player who cannot move has just seen the last token taken: in misere play that player
  // wins, so a finished position has value 1 (and positions with moves the usual mex).
  if (state.empty()) return 1;
  if (auto found = memo_->values.find(state); found != memo_->values.end()) return found->second;
  if (memo_->values.size() >= entry_limit_) {
    std::string message = "misère search passed the ";
    message.append(std::to_string(entry_limit_)).append(" positions it may keep in memory; try a smaller position");
    throw SolveError(message);
  }
  std::vector<bool> seen;
  for (std::size_t i = 0; i < state.size(); ++i) {
    if (i > 0 && state[i] == state[i - 1]) continue;  // equal heaps have the same options
    for (const State& option : memo_->options[heap_at(state, i)]) {
      State child = state;
      child.erase(i, 1);
      child += option;
      sort_state(child);
      const std::uint64_t value = search(child);
      if (value >= seen.size()) seen.resize(value + 1);
      seen[value] = true;
    }
  }
  std::uint64_t mex = 0;
  while (mex < seen.size() && seen[mex]) ++mex;
  memo_->values.emplace(state, mex);
  return mex;
}

}  // namespace sgx
