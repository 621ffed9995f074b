// sg_solve: who wins a position of an impartial game, and every winning move.

#include <boost/program_options.hpp>
#include <cctype>
#include <iostream>

#include "cli.hpp"
#include "openmp_waits.hpp"
#include "sgx/report.hpp"
#include "sgx/solve.hpp"
#include "sgx/store.hpp"

namespace po = boost::program_options;

namespace {

using namespace sgx;

constexpr const char* kTool = "sg_solve";

const char* kUsage = R"(Usage: sg_solve GAME POSITION... [--misere] [--json] [--from FILE.h5]

The value of a position (the XOR of its parts' Sprague-Grundy values), who wins (N: the player to
move wins, P: the player to move loses), and every winning move: which part, and what it leaves.

GAME and POSITION:
  kayles 3 4 5       any heap code run_octal takes (0.137, 4!.0, sub:1,3,4, nim, ...): heap sizes
  bash:M 7 12        the Bash game, take 1 to M from a heap: heap sizes
  wythoff 3 5        Wythoff's game: two numbers per game (take any number from one heap of the
                     pair, or the same number from both); 3 5 1 2 is a sum of two games
  fibonacci 20       Fibonacci Nim: a heap at the start (the first move may take 1..n-1, every
                     later move at most twice the last take; whoever takes the last token wins);
                     18/4 is a heap of 18 of which at most 4 may be taken
  cut 4x7 2x5        paper cutting (POJ 2311): cut one sheet along a grid line into two; whoever
                     first cuts out a 1 x 1 piece wins. A cut leaving a 1 x k strip lets the
                     opponent win next, so such cuts are left out and sheets start at 2x2

Play:
  normal play (default): the player who cannot move loses; a winning move leaves value 0.
  --misere: the player who makes the last move (takes the last token) loses; heap codes and
  bash:M only. Nim follows Bouton's rule at any size; other codes are searched whole, memoised
  over multisets of heaps, up to 40 tokens: misere play has no XOR shortcut in general (Conway,
  On Numbers and Games ch. 12; Plambeck's misere quotients). The value shown is then the misere
  Grundy value of the whole position (0 exactly when the player to move loses).

Values of code games come from the engine for heaps up to 2^20 (2^12 for codes with a repeating
tail; Nim and Bash by formula), or from a run file with --from. Wythoff, Fibonacci Nim and cut
values are tabulated for sizes up to 300, 500 and 300; one Wythoff or Fibonacci Nim game alone is
solved at any size from its P-positions (the value is then not shown).

Output: text for people, or with --json one object: game, misere, heaps, value, outcome,
winning_moves [{heap_index, from, to}], count. heap_index counts from 1, as in the text; from is
a heap (a number) or, for wythoff, fibonacci and cut, the pair [a, b], [n, limit] or [rows,
columns]; to lists what the move leaves ([] when a heap is taken whole).

Examples:
  sg_solve nim 3 4 5                 value 2, one winning move: heap 1, 3 -> 1
  sg_solve kayles 8 13 21 --json
  sg_solve 0.137 1000000 --from results/0.137.h5
  sg_solve nim 1 1 2 --misere
  sg_solve wythoff 4 7
  sg_solve fibonacci 100
  sg_solve cut 4x7

Options)";

std::string outcome_text(const Solution& solution) {
  return solution.mover_wins ? "N: the player to move wins" : "P: the player to move loses";
}

void print_text(const Game& game, const std::vector<Component>& position, const Solution& solution, bool misere) {
  std::cout << "game      " << game.name;
  if (!game.description.empty()) std::cout << " (" << game.description << ")";
  std::cout << "\nposition ";
  for (const Component& c : position) std::cout << " " << component_text(game, c);
  if (misere) std::cout << "\nplay      misère: whoever makes the last move (takes the last token) loses";
  std::cout << "\nvalue     ";
  if (!solution.value)
    std::cout << "not computed";
  else
    std::cout << *solution.value << (misere ? " (misère value of the whole position)" : "");
  std::cout << "\noutcome   " << outcome_text(solution) << "\nmethod    " << solution.method << "\n";
  if (solution.winning_moves.empty()) {
    std::cout << "winning moves: none\n";
    return;
  }
  std::cout << "winning moves (" << solution.winning_moves.size() << "):\n";
  for (const Move& move : solution.winning_moves) {
    std::cout << "  " << move_text(game, move) << "\n";
  }
}

// A code-game heap is a number; the parts of other games are arrays.
Json component_json(const Game& game, const Component& c) {
  if (game.kind == GameKind::Code) return c[0];
  return Json(c);
}

Json solution_json(const Game& game, const std::vector<Component>& position, const Solution& solution,
                   bool misere) {
  Json heaps = Json::array();
  for (const Component& c : position) heaps.push_back(component_json(game, c));
  Json moves = Json::array();
  for (const Move& move : solution.winning_moves) {
    Json to = Json::array();
    for (const Component& c : move.to) to.push_back(component_json(game, c));
    moves.push_back({{"heap_index", move.index + 1}, {"from", component_json(game, move.from)}, {"to", std::move(to)}});
  }
  return {{"game", game.name},
          {"misere", misere},
          {"heaps", std::move(heaps)},
          {"value", solution.value ? Json(*solution.value) : Json(nullptr)},
          {"outcome", solution.mover_wins ? "N" : "P"},
          {"winning_moves", std::move(moves)},
          {"count", solution.winning_moves.size()}};
}

// Boost would read "-3" as an unknown option; a negative heap deserves its own message.
void refuse_negative_heaps(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.size() > 1 && word[0] == '-' && std::isdigit(static_cast<unsigned char>(word[1])))
      throw cli::UsageError(
          std::string("heap '").append(word).append("' is negative: heaps are whole numbers 0, 1, 2, ..."));
  }
}

int run(int argc, char** argv) {
  refuse_negative_heaps(argc, argv);
  std::vector<std::string> words;
  std::string from;
  bool json = false, misere = false;
  po::options_description visible(kUsage);
  visible.add_options()("misere", po::bool_switch(&misere), "misere play: whoever makes the last move loses")(
      "json", po::bool_switch(&json), "print one JSON object")("from", po::value(&from)->value_name("FILE.h5"),
                                                               "heap values of the game from a run_octal file");
  po::variables_map vm;
  if (!cli::parse_command_line(kTool, argc, argv, visible, vm, &words)) return cli::kExitOk;
  if (words.empty()) throw cli::UsageError("no game given: e.g. sg_solve nim 3 4 5");
  if (words.size() == 1)
    throw cli::UsageError(std::string("no position given: e.g. sg_solve ").append(words[0]).append(" 3 4 5"));

  try {
    const Game game = parse_game(words[0]);
    const std::vector<Component> position = parse_position(game, {words.begin() + 1, words.end()});
    SolveOptions options;
    options.misere = misere;
    RunRecord record;
    if (!from.empty()) {
      record = read_run_file(from, read_run_status(from).holds_every_value() ? LoadValues::All : LoadValues::AsRun);
      if (game.kind == GameKind::Code && record.game != game.rules->canonical())
        throw cli::UsageError(std::string(from)
                                  .append(" holds the values of ")
                                  .append(record.game)
                                  .append(", not of ")
                                  .append(game.rules->canonical()));
      // A run made with --memory keeps a prefix of the values: a heap in it has all its options there.
      if (record.values.has_released())
        for (const Component& component : position)
          if (game.kind == GameKind::Code && component.at(0) >= record.values.prefix_end())
            throw cli::UsageError(from + " was computed with --memory and keeps G(0.." +
                                  std::to_string(record.values.prefix_end() - 1) + ") with all their options: heap " +
                                  std::to_string(component.at(0)) + " needs values it released");
      options.stored_values = &record.values;
      options.stored_name = from;
    }
    const Solution solution = solve(game, position, options);
    if (json)
      std::cout << json_text(solution_json(game, position, solution, misere)) << "\n";
    else
      print_text(game, position, solution, misere);
  } catch (const HeapBeyondStoredValuesError& e) {
    throw cli::UsageError(std::string(e.what()) + ": extend the run with run_octal --resume and a larger --n");
  } catch (const HeapBeyondComputedValuesError& e) {
    const std::string& game = words[0];
    throw cli::UsageError(std::string(e.what()) + ": compute them once with run_octal " + game +
                          " --n N --out FILE.h5 and pass --from FILE.h5");
  } catch (const SolveError& e) {
    throw cli::UsageError(e.what());  // a position beyond what can be solved is bad input: exit 2
  }
  return cli::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  sgx::cli::choose_openmp_waits(argv);
  return sgx::cli::run_tool(kTool, [&] { return run(argc, argv); });
}
