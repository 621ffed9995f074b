// Positions of impartial games: value, outcome and every winning move (see solve.hpp).

#include "sgx/solve.hpp"

#include <algorithm>

#include "sgx/classic.hpp"
#include "sgx/engine.hpp"
#include "sgx/numbers.hpp"
#include "sgx/table2d.hpp"

namespace sgx {

namespace {

// Options examined for one heap when listing winning moves (three-heap splits grow as h^2).
constexpr std::uint64_t kMaxOptionsPerHeap = std::uint64_t{1} << 27;
// Value tables of the classic games cost about side^3 steps.
constexpr std::uint64_t kMaxWythoffTable = 300;
constexpr std::uint64_t kMaxFibonacciTable = 500;
constexpr std::uint64_t kMaxCutTable = 300;

using OptionVisit = std::function<void(const std::vector<Component>&)>;

// What the sum solver needs of one kind of component.
struct ComponentRules {
  std::function<std::uint64_t(const Component&)> value;
  // Calls visit with every option of the component (what it leaves) whose value is target.
  std::function<void(const Component&, std::uint64_t target, const OptionVisit&)> options_of_value;
};

// The pieces of a message joined, numbers in decimal. Built with append: GCC 12 warns falsely
// (-Wrestrict) on chains of "literal" + string.
std::string piece(std::string_view text) { return std::string(text); }
std::string piece(std::uint64_t number) { return std::to_string(number); }
template <class... Parts>
std::string concat(const Parts&... parts) {
  std::string text;
  (text.append(piece(parts)), ...);
  return text;
}

// Where the stored values come from, for messages.
std::string stored_values_name(const SolveOptions& options) {
  return options.stored_name.empty() ? "the stored values" : options.stored_name;
}

// ---- Reading positions ----

std::uint64_t parse_heap(const std::string& word, std::uint64_t max = UINT64_MAX) {
  if (!word.empty() && word.front() == '-')
    throw SolveError(concat("heap '", word, "' is negative: heaps are whole numbers 0, 1, 2, ..."));
  try {
    return parse_whole(word, max);
  } catch (const NumberError& e) {
    throw SolveError(concat("heap ", e.what()));
  }
}

Component parse_fibonacci_heap(const std::string& word) {
  const auto slash = word.find('/');
  if (slash == std::string::npos) {
    const std::uint64_t n = parse_heap(word);
    return {n, n == 0 ? 0 : n - 1};  // the first move may take anything but the whole heap
  }
  const std::uint64_t n = parse_heap(word.substr(0, slash));
  const std::string limit_text = word.substr(slash + 1);
  std::uint64_t limit = 0;
  try {
    limit = parse_count(limit_text);
  } catch (const NumberError& e) {
    throw SolveError(
        concat("fibonacci heap '", word, "': the limit after '/' (the most the mover may take) ", e.what()));
  }
  return {n, limit};
}

Component parse_sheet(const std::string& word) {
  const auto x = word.find_first_of("xX");
  if (x == std::string::npos) throw SolveError(concat("sheet '", word, "' is not written ROWSxCOLUMNS, such as 4x7"));
  const std::uint64_t rows = parse_heap(word.substr(0, x)), columns = parse_heap(word.substr(x + 1));
  if (rows < 2 || columns < 2)
    throw SolveError(concat("sheet '", word,
                            "' has a side below 2: the player to move cuts out a 1 x 1 piece at once (or the "
                            "game is over); give sheets of at least 2x2"));
  return {rows, columns};
}

// ---- Code games ----

// The operations on heap values: Nim and Bash by formula, other codes from a table.
struct HeapValues {
  std::function<std::uint64_t(std::uint64_t)> of;
  std::string method;
};

std::uint64_t max_heap(const std::vector<Component>& position) {
  std::uint64_t largest = 0;
  for (const Component& c : position) largest = std::max(largest, c[0]);
  return largest;
}

HeapValues heap_values(const Game& game, const std::vector<Component>& position, const SolveOptions& options,
                       Sequence& computed) {
  const std::uint64_t largest = max_heap(position);
  if (options.stored_values) {
    const Sequence& stored = *options.stored_values;
    const std::uint64_t n = stored.size();
    if (largest >= n)
      throw HeapBeyondStoredValuesError(largest, n,
                                        concat("heap ", largest, " is beyond the values stored in ",
                                               stored_values_name(options), " (n = ", n, ", heaps below ", n, ")"));
    return {[&stored](std::uint64_t h) -> std::uint64_t { return stored[h]; },
            concat("G from ", options.stored_name, " (n = ", n, ")")};
  }
  if (game.nim) return {[](std::uint64_t h) { return h; }, "G(n) = n (Nim, Bouton)"};
  if (game.bash_take > 0) {
    const std::uint64_t period = game.bash_take + 1;
    return {[period](std::uint64_t h) { return h % period; }, concat("G(n) = n mod ", period)};
  }
  const std::uint64_t limit = game.rules->has_tail() ? kMaxComputedHeapWithTail : kMaxComputedHeap;
  if (largest > limit)
    throw HeapBeyondComputedValuesError(
        largest, limit, concat("heap ", largest, " is beyond the heaps whose values are computed on the spot for ", game.name,
                               " (up to ", limit, ")"));
  computed = compute_sequence(*game.rules, largest + 1, KernelKind::Auto, 0, true);
  return {[&computed](std::uint64_t h) -> std::uint64_t { return computed[h]; },
          concat("G(0..", largest, ") from the engine")};
}

// About how many options a heap has, counting no further than cap.
std::uint64_t count_options(const Rules& rules, std::uint64_t heap, std::uint64_t cap) {
  const std::uint64_t last_take = rules.has_tail() ? heap : std::min(heap, rules.largest_take());
  std::uint64_t count = 0;
  for (std::uint64_t k = 0; k <= last_take && count <= cap; ++k) {
    const unsigned bits = rules.digit(k).bits;
    const std::uint64_t rest = heap - k;
    count += 1;
    if (bits & kLeaveTwo) count += rest / 2;
    if (bits & kLeaveThree) count += rest > (std::uint64_t{1} << 30) ? cap + 1 : rest * rest / 12;
  }
  return count;
}

ComponentRules code_rules(const Game& game, const HeapValues& values) {
  ComponentRules rules;
  rules.value = [&values](const Component& c) { return values.of(c[0]); };
  if (game.nim) {
    // Every option of a Nim heap is a smaller heap whose value is its size.
    rules.options_of_value = [](const Component& c, std::uint64_t target, const OptionVisit& visit) {
      if (target < c[0]) visit(target == 0 ? std::vector<Component>{} : std::vector<Component>{{target}});
    };
    return rules;
  }
  rules.options_of_value = [&game, &values](const Component& c, std::uint64_t target, const OptionVisit& visit) {
    if (count_options(*game.rules, c[0], kMaxOptionsPerHeap) > kMaxOptionsPerHeap)
      throw SolveError(
          concat("heap ", c[0], " has more than ", kMaxOptionsPerHeap, " options, more than are examined for one heap"));
    for_each_option(*game.rules, c[0], [&](const std::vector<std::uint64_t>& parts) {
      std::uint64_t value = 0;
      for (std::uint64_t part : parts) value ^= values.of(part);
      if (value != target) return;
      std::vector<Component> to;
      for (std::uint64_t part : parts) to.push_back({part});
      visit(to);
    });
  };
  return rules;
}

// ---- Sums in normal play ----

Solution solve_sum(const std::vector<Component>& position, const ComponentRules& rules) {
  Solution solution;
  std::vector<std::uint64_t> values;
  std::uint64_t total = 0;
  for (const Component& c : position) {
    values.push_back(rules.value(c));
    total ^= values.back();
  }
  solution.value = total;
  solution.mover_wins = total != 0;
  if (total == 0) return solution;  // no option of a component has the component's own value
  for (std::size_t i = 0; i < position.size(); ++i) {
    rules.options_of_value(position[i], values[i] ^ total, [&](const std::vector<Component>& to) {
      solution.winning_moves.push_back({i, position[i], to});
    });
  }
  return solution;
}

Solution solve_code(const Game& game, const std::vector<Component>& position, const SolveOptions& options) {
  Sequence computed;
  const HeapValues values = heap_values(game, position, options, computed);
  Solution solution = solve_sum(position, code_rules(game, values));
  solution.method = values.method;
  return solution;
}

std::vector<std::uint64_t> heaps_of(const std::vector<Component>& position) {
  std::vector<std::uint64_t> heaps;
  for (const Component& c : position) heaps.push_back(c[0]);
  return heaps;
}

// Misère play, found by a value function over whole positions and the candidate options of each
// heap: a move wins exactly when it leaves a position of misère value 0.
template <class Value, class Candidates>
Solution solve_whole(const std::vector<Component>& position, Value value, Candidates candidates) {
  Solution solution;
  std::vector<std::uint64_t> heaps = heaps_of(position);
  solution.value = value(heaps);
  solution.mover_wins = *solution.value != 0;
  if (!solution.mover_wins) return solution;
  for (std::size_t i = 0; i < heaps.size(); ++i) {
    candidates(heaps[i], [&](const std::vector<std::uint64_t>& parts) {
      std::vector<std::uint64_t> after = heaps;
      after.erase(after.begin() + static_cast<std::ptrdiff_t>(i));
      after.insert(after.end(), parts.begin(), parts.end());
      if (value(after) != 0) return;
      std::vector<Component> to;
      for (std::uint64_t part : parts) to.push_back({part});
      solution.winning_moves.push_back({i, position[i], to});
    });
  }
  return solution;
}

Solution solve_misere_code(const Game& game, const std::vector<Component>& position) {
  if (game.nim) {
    std::uint64_t nim_sum = 0;
    for (const Component& c : position) nim_sum ^= c[0];
    // A winning move leaves nim-sum 0 with a heap >= 2, or only heaps <= 1: so the new heap is
    // h ^ nim_sum, 1 or 0.
    auto candidates = [nim_sum](std::uint64_t heap, const auto& visit) {
      std::vector<std::uint64_t> sizes = {heap ^ nim_sum, 1, 0};
      std::sort(sizes.rbegin(), sizes.rend());
      sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
      for (std::uint64_t size : sizes)
        if (size < heap) visit(size == 0 ? std::vector<std::uint64_t>{} : std::vector<std::uint64_t>{size});
    };
    Solution solution = solve_whole(position, misere_nim_value, candidates);
    solution.method = "Bouton's rule for misère Nim";
    return solution;
  }
  MisereSearch search(*game.rules);
  auto value = [&search](const std::vector<std::uint64_t>& heaps) { return search.value(heaps); };
  auto candidates = [&game](std::uint64_t heap, const auto& visit) { for_each_option(*game.rules, heap, visit); };
  Solution solution = solve_whole(position, value, candidates);
  solution.method = concat("misère search over ", search.positions_searched(), " positions");
  return solution;
}

// ---- The classic games ----

std::uint64_t largest_number(const std::vector<Component>& position) {
  std::uint64_t largest = 0;
  for (const Component& c : position)
    for (std::uint64_t x : c) largest = std::max(largest, x);
  return largest;
}

std::string table_too_small(const std::string& what, std::uint64_t limit, std::uint64_t largest) {
  return concat(what, " values are tabulated here for sizes up to ", limit, " (this position has ", largest, ")");
}

Solution solve_wythoff(const std::vector<Component>& position) {
  const std::uint64_t largest = largest_number(position);
  if (largest > kMaxWythoffTable) {
    if (position.size() > 1)
      throw SolveError(
          table_too_small("sums of Wythoff games need Sprague-Grundy values; they", kMaxWythoffTable, largest));
    // One game alone: who wins and how follows from the P-positions at any size.
    Solution solution;
    const std::uint64_t a = position[0][0], b = position[0][1];
    solution.mover_wins = !wythoff_is_p(a, b);
    for (const auto& [a2, b2] : wythoff_winning_moves(a, b))
      solution.winning_moves.push_back({0, position[0], {{a2, b2}}});
    solution.method =
        concat("P-positions (floor(k phi), floor(k phi^2)); the value is tabulated only up to ", kMaxWythoffTable);
    return solution;
  }
  const GameTable table = compute_table(GameKind::Wythoff, largest + 1);
  ComponentRules rules;
  rules.value = [&table](const Component& c) { return table.at(c[0], c[1]); };
  rules.options_of_value = [&table](const Component& c, std::uint64_t target, const OptionVisit& visit) {
    for (const auto& [a, b] : wythoff_options(c[0], c[1]))
      if (table.at(a, b) == target) visit({{a, b}});
  };
  Solution solution = solve_sum(position, rules);
  solution.method = "mex table of Wythoff's game";
  return solution;
}

std::vector<Component> fibonacci_left(std::uint64_t n, std::uint64_t take) {
  if (take == n) return {};
  return {{n - take, 2 * take}};
}

Solution solve_fibonacci(const std::vector<Component>& position) {
  std::uint64_t largest = 0;
  for (const Component& c : position) largest = std::max(largest, c[0]);
  if (largest > kMaxFibonacciTable) {
    if (position.size() > 1)
      throw SolveError(
          table_too_small("sums of Fibonacci Nim games need Sprague-Grundy values; they", kMaxFibonacciTable, largest));
    Solution solution;
    const std::uint64_t n = position[0][0], limit = position[0][1];
    solution.mover_wins = fibonacci_nim_mover_wins(n, limit);
    for (std::uint64_t take : fibonacci_nim_winning_takes(n, limit))
      solution.winning_moves.push_back({0, position[0], fibonacci_left(n, take)});
    solution.method = concat("Zeckendorf representation; the value is tabulated only up to ", kMaxFibonacciTable);
    return solution;
  }
  const FibonacciNimValues table(largest);
  ComponentRules rules;
  rules.value = [&table](const Component& c) { return table.value(c[0], c[1]); };
  rules.options_of_value = [&table](const Component& c, std::uint64_t target, const OptionVisit& visit) {
    const std::uint64_t n = c[0];
    for (std::uint64_t take = 1; take <= std::min(n, c[1]); ++take)
      if (table.value(n - take, 2 * take) == target) visit(fibonacci_left(n, take));
  };
  Solution solution = solve_sum(position, rules);
  solution.method = "mex table of Fibonacci Nim over (heap, limit)";
  return solution;
}

Solution solve_cut(const std::vector<Component>& position) {
  const std::uint64_t largest = largest_number(position);
  if (largest > kMaxCutTable) throw SolveError(table_too_small("cutting-game", kMaxCutTable, largest));
  const GameTable table = compute_table(GameKind::Cut, largest + 1);
  ComponentRules rules;
  rules.value = [&table](const Component& c) { return table.at(c[0], c[1]); };
  rules.options_of_value = [&table](const Component& c, std::uint64_t target, const OptionVisit& visit) {
    for (const auto& [first, second] : cut_options({c[0], c[1]}))
      if ((table.at(first.first, first.second) ^ table.at(second.first, second.second)) == target)
        visit({{first.first, first.second}, {second.first, second.second}});
  };
  Solution solution = solve_sum(position, rules);
  solution.method = "mex table of the cutting game (cuts that leave a strip of width 1 left out)";
  return solution;
}

}  // namespace

std::vector<Component> parse_position(const Game& game, const std::vector<std::string>& words) {
  if (words.empty()) throw SolveError("no position given: name at least one heap");
  std::vector<Component> position;
  switch (game.kind) {
    case GameKind::Code:
      for (const auto& word : words) position.push_back({parse_heap(word)});
      break;
    case GameKind::Wythoff:
      if (words.size() % 2 != 0)
        throw SolveError(
            concat("wythoff takes its heaps in pairs, two numbers per game; got ", words.size(), " numbers"));
      for (std::size_t i = 0; i < words.size(); i += 2)
        position.push_back({parse_heap(words[i], kWythoffMaxHeap), parse_heap(words[i + 1], kWythoffMaxHeap)});
      break;
    case GameKind::Fibonacci:
      for (const auto& word : words) position.push_back(parse_fibonacci_heap(word));
      break;
    case GameKind::Cut:
      for (const auto& word : words) position.push_back(parse_sheet(word));
      break;
  }
  return position;
}

std::string component_text(const Game& game, const Component& c) {
  switch (game.kind) {
    case GameKind::Code:
      return std::to_string(c[0]);
    case GameKind::Wythoff:
      return concat("(", c[0], ", ", c[1], ")");
    case GameKind::Fibonacci:
      // A heap whose limit is one below its size plays exactly like a heap at the start.
      if (c[1] + 1 == c[0] || c[0] == 0) return std::to_string(c[0]);
      return concat(c[0], "/", c[1]);
    case GameKind::Cut:
      return concat(c[0], "x", c[1]);
  }
  return {};
}

std::string move_text(const Game& game, const Move& move) {
  const char* kind = game.kind == GameKind::Wythoff ? "pair" : game.kind == GameKind::Cut ? "sheet" : "heap";
  std::string left;
  for (const Component& c : move.to) left.append(left.empty() ? "" : " + ").append(component_text(game, c));
  std::string text = concat(kind, " ", move.index + 1, ": ", component_text(game, move.from), " -> ",
                            left.empty() ? "0" : left);
  if (game.kind == GameKind::Fibonacci)
    text.append(concat("  (take ", move.from[0] - (move.to.empty() ? 0 : move.to[0][0]), ")"));
  return text;
}

Solution solve(const Game& game, const std::vector<Component>& position, const SolveOptions& options) {
  if (position.empty()) throw SolveError("no position given: name at least one heap");
  if (options.stored_values && game.kind != GameKind::Code)
    throw SolveError(concat(stored_values_name(options), " holds the heap values of a code game, not of ", game.name));
  if (options.misere) {
    if (options.stored_values)
      throw SolveError(concat(stored_values_name(options), " holds normal-play values; misère play does not use them"));
    if (game.kind != GameKind::Code)
      throw SolveError(concat("misère play is offered for heap codes and bash:M, not for ", game.name));
    return solve_misere_code(game, position);
  }
  switch (game.kind) {
    case GameKind::Code:
      return solve_code(game, position, options);
    case GameKind::Wythoff:
      return solve_wythoff(position);
    case GameKind::Fibonacci:
      return solve_fibonacci(position);
    case GameKind::Cut:
      return solve_cut(position);
  }
  return {};
}

void for_each_option(const Rules& rules, std::uint64_t heap,
                     const std::function<void(const std::vector<std::uint64_t>&)>& visit) {
  const std::uint64_t last_take = rules.has_tail() ? heap : std::min(heap, rules.largest_take());
  for (std::uint64_t k = 0; k <= last_take; ++k) {
    const Digit digit = rules.digit(k);
    const std::uint64_t rest = heap - k;
    if (rest == 0) {
      if (k > 0 && (digit.bits & kLeaveNone)) visit({});
      continue;
    }
    if (k > 0 && (digit.bits & kLeaveOne)) visit({rest});
    if (digit.bits & kLeaveTwo) {
      for (std::uint64_t a = 1; 2 * a <= rest; ++a)
        if (!(digit.unequal && 2 * a == rest)) visit({a, rest - a});
    }
    if (digit.bits & kLeaveThree) {
      for (std::uint64_t a = 1; 3 * a <= rest; ++a) {
        const std::uint64_t first_b = digit.unequal ? a + 1 : a;
        for (std::uint64_t b = first_b; b <= (rest - a) / 2; ++b) {
          const std::uint64_t c = rest - a - b;
          if (!(digit.unequal && c == b)) visit({a, b, c});
        }
      }
    }
  }
}

std::vector<std::vector<std::uint64_t>> heap_options(const Rules& rules, std::uint64_t heap) {
  std::vector<std::vector<std::uint64_t>> options;
  for_each_option(rules, heap, [&](const std::vector<std::uint64_t>& parts) { options.push_back(parts); });
  return options;
}

}  // namespace sgx
