// sgx._sgx, the compiled part of the Python package sgx (python/sgx): the library's computations
// for notebooks, values as numpy arrays.
//
// Long calls release the GIL. sgx.sequence looks at Python's signals between engine steps (each a
// fraction of a second) with the GIL held for a moment, so Ctrl-C stops it as KeyboardInterrupt.
// The library's exceptions become Python's: a malformed code or a bad argument is a ValueError with
// the message the command-line tools print, an unreadable file an OSError.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "sgx/engine.hpp"
#include "sgx/games.hpp"
#include "sgx/period.hpp"
#include "sgx/report.hpp"
#include "sgx/rules.hpp"
#include "sgx/run_session.hpp"
#include "sgx/sequence.hpp"
#include "sgx/solve.hpp"
#include "sgx/stats.hpp"
#include "sgx/store.hpp"
#include "sgx/version.hpp"

namespace py = pybind11;

namespace {

using sgx::Sequence;

// ---- values between numpy and the library ----

// The values as a numpy array of the sequence's own (narrowest) type, without a copy: the array
// owns the sequence.
// Arrays of values[begin..end-1] for each range, all on the storage of values (no copy), which
// lives as long as any of them.
std::vector<py::array> to_numpy_ranges(Sequence values,
                                       const std::vector<std::pair<std::uint64_t, std::uint64_t>>& ranges) {
  auto* owned = new Sequence(std::move(values));
  py::capsule owner(owned, [](void* sequence) { delete static_cast<Sequence*>(sequence); });
  std::vector<py::array> arrays;
  for (const auto& [begin, end] : ranges)
    arrays.push_back(owned->visit([&](auto& v) -> py::array {
      using T = typename std::decay_t<decltype(v)>::value_type;
      return py::array_t<T>({static_cast<py::ssize_t>(end - begin)}, {static_cast<py::ssize_t>(sizeof(T))},
                            v.data() + begin, owner);
    }));
  return arrays;
}

py::array to_numpy(Sequence values) {
  const std::uint64_t n = values.size();
  return to_numpy_ranges(std::move(values), {{0, n}}).front();
}

template <class T>
void append_checked(const py::array& values, Sequence& out) {
  const auto typed = values.unchecked<T, 1>();
  for (py::ssize_t i = 0; i < typed.shape(0); ++i) {
    const T value = typed(i);
    if constexpr (std::is_signed_v<T>)
      if (value < 0)
        throw py::value_error("values[" + std::to_string(i) + "] is " + std::to_string(value) +
                              ": nim-values are never negative");
    if (static_cast<std::uint64_t>(value) > std::numeric_limits<sgx::Value>::max())
      throw py::value_error("values[" + std::to_string(i) + "] is " + std::to_string(value) +
                            ": nim-values above 2^32 - 1 are not supported");
    out.push_back(static_cast<sgx::Value>(value));
  }
}

// Any one-dimensional array or list of non-negative integers, as a Sequence.
Sequence from_python(const py::object& object) {
  const py::array values = py::array::ensure(object);
  if (!values) throw py::type_error("values must be a list or a one-dimensional array of integers");
  if (values.ndim() != 1)
    throw py::value_error("values must be one-dimensional, got " + std::to_string(values.ndim()) + " dimensions");
  const char kind = values.dtype().kind();
  if (values.size() > 0 && kind != 'u' && kind != 'i')
    throw py::type_error(std::string("values must be integers, got an array of dtype ") +
                         py::str(values.dtype()).cast<std::string>());
  Sequence out;
  out.reserve(static_cast<std::uint64_t>(values.size()));
  if (values.size() == 0) return out;
  const py::dtype dtype = values.dtype();
  if (dtype.equal(py::dtype::of<std::uint8_t>()))
    append_checked<std::uint8_t>(values, out);
  else if (dtype.equal(py::dtype::of<std::uint16_t>()))
    append_checked<std::uint16_t>(values, out);
  else if (dtype.equal(py::dtype::of<std::uint32_t>()))
    append_checked<std::uint32_t>(values, out);
  else if (kind == 'u')
    append_checked<std::uint64_t>(py::array_t<std::uint64_t, py::array::forcecast>::ensure(values), out);
  else
    append_checked<std::int64_t>(py::array_t<std::int64_t, py::array::forcecast>::ensure(values), out);
  return out;
}

std::string path_text(const py::object& path) {
  return py::module_::import("os").attr("fspath")(path).cast<std::string>();
}

// ---- sequence ----

// Runs between engine steps: with the GIL held for a moment, lets Python run its signal handlers.
// Ctrl-C makes PyErr_CheckSignals fail with KeyboardInterrupt set; the error is kept to raise
// once the engine has stopped.
class StopOnSignal {
 public:
  bool operator()(const sgx::Progress&) {
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() == 0) return true;
    error_.emplace();  // takes the pending error
    return false;
  }
  void raise_if_stopped() {
    if (error_) throw std::move(*error_);
  }

 private:
  std::optional<py::error_already_set> error_;
};

py::array sequence(const std::string& game, std::int64_t n, const std::optional<int>& threads,
                   const std::string& engine_name) {
  if (n < 0) throw py::value_error("n must be >= 0, got " + std::to_string(n));
  sgx::EngineOptions options;
  options.kernel = sgx::parse_kernel_kind(engine_name);
  if (threads && *threads < 1) throw py::value_error("threads must be at least 1, got " + std::to_string(*threads));
  options.threads = threads.value_or(0);
  sgx::Engine engine(sgx::parse_heap_game(game), options);
  StopOnSignal stop;
  {
    py::gil_scoped_release unlocked;
    engine.compute_to(static_cast<std::uint64_t>(n), std::ref(stop));
  }
  stop.raise_if_stopped();
  Sequence values = engine.values();
  values.truncate(static_cast<std::uint64_t>(n));
  return to_numpy(std::move(values));
}

// ---- period and stats ----

// The period of the run in a file, from its values read a block at a time, so that a run of any
// length is analysed in a few tens of megabytes (a version-2 file, which lacks its released middle,
// is read whole and refused as read_run_file refuses it).
sgx::PeriodResult period_of_run_file(const std::string& path, const std::optional<std::string>& game) {
  py::gil_scoped_release unlocked;
  const sgx::RunStatus status = sgx::read_run_status(path);
  if (game && sgx::parse_heap_game(*game).canonical() != status.game)
    throw py::value_error(path + " holds a run of " + status.game + ", not " + *game);
  const sgx::Rules rules = sgx::parse_heap_game(status.game);
  if (status.format_version == sgx::kReleasedFormatVersion)
    return sgx::analyze_period(sgx::read_run_file(path, sgx::LoadValues::All).values, rules);
  return sgx::analyze_period(status.n, sgx::run_file_reader(path), rules);
}

sgx::PeriodResult period(const py::object& values_object, const std::optional<std::string>& game) {
  if (py::isinstance<py::str>(values_object) || py::hasattr(values_object, "__fspath__"))
    return period_of_run_file(path_text(values_object), game);
  const Sequence values = from_python(values_object);
  std::optional<sgx::Rules> rules;
  if (game) rules = sgx::parse_heap_game(*game);
  py::gil_scoped_release unlocked;
  if (rules) return sgx::analyze_period(values, *rules);
  return values.visit([](const auto& v) { return sgx::find_additive_period(std::span(v.data(), v.size())); });
}

// What the JSON reports give as null is None: the period's numbers when none was found, the theorem
// unless it proved the period, proof_needs_n when no theorem applies (docs/JSON.md).
py::object none_unless(bool known, std::uint64_t value) {
  return known ? py::object(py::int_(value)) : py::object(py::none());
}

py::object theorem_object(const sgx::PeriodResult& p) {
  return p.proven ? py::object(py::str(p.theorem)) : py::object(py::none());
}

std::string period_repr(const sgx::PeriodResult& p) {
  if (!p.found) return "Period(found=False, checked_n=" + std::to_string(p.checked_n) + ")";
  const std::string theorem = p.proven ? "'" + p.theorem + "'" : std::string("None");
  const std::string needs = p.proof_needs_n > 0 ? std::to_string(p.proof_needs_n) : std::string("None");
  return "Period(period=" + std::to_string(p.period) + ", preperiod=" + std::to_string(p.preperiod) +
         ", saltus=" + std::to_string(p.saltus) + ", proven=" + (p.proven ? "True" : "False") + ", theorem=" +
         theorem + ", proof_needs_n=" + needs + ", checked_n=" + std::to_string(p.checked_n) + ")";
}

sgx::SparseStats stats(const py::object& values_object, const std::optional<std::string>& game) {
  const Sequence values = from_python(values_object);
  const sgx::SplitTakeParity splits =
      game ? sgx::parse_heap_game(*game).split_take_parity() : sgx::SplitTakeParity::Mixed;
  py::gil_scoped_release unlocked;
  return sgx::compute_stats(values, splits);
}

std::string stats_repr(const sgx::SparseStats& s) {
  return "Stats(rare_mask=" + sgx::rare_mask_text(s.rare_mask) + ", rare_count=" + std::to_string(s.rare_count) +
         ", last_rare=" + std::to_string(s.last_rare) + ", max_value=" + std::to_string(s.max_value) +
         ", max_at=" + std::to_string(s.max_at) + ", histogram=<" + std::to_string(s.histogram.size()) + " counts>)";
}

py::array_t<std::uint64_t> histogram_array(const sgx::SparseStats& s) {
  return py::array_t<std::uint64_t>(static_cast<py::ssize_t>(s.histogram.size()), s.histogram.data());
}

// Whether each of values is rare under the statistics' mask, values[i] being G(start + i): the
// library's own test (sgx::is_rare), the heap's parity included when the mask has it.
py::array_t<bool> rare_flags(const sgx::SparseStats& s, const py::object& values_object, std::int64_t start) {
  if (start < 0) throw py::value_error("start must be >= 0, got " + std::to_string(start));
  const Sequence values = from_python(values_object);
  py::array_t<bool> flags(static_cast<py::ssize_t>(values.size()));
  bool* out = flags.mutable_data();
  const auto first = static_cast<std::uint64_t>(start);
  py::gil_scoped_release unlocked;
  values.visit([&](const auto& v) {
    for (std::size_t i = 0; i < v.size(); ++i) out[i] = sgx::is_rare(v[i], first + i, s.rare_mask);
  });
  return flags;
}

// ---- solve ----

// A move as Python sees it: heaps as ints for code games, tuples for the other games' parts.
struct PyMove {
  std::size_t index = 0;  // counting from 1, as the tools print it
  py::object before;
  py::list after;
  std::string text;
};

struct PySolution {
  std::optional<std::uint64_t> value;
  bool mover_wins = false;
  std::vector<PyMove> winning_moves;
  std::string method;
  std::string game;
  bool misere = false;
};

py::object component_object(const sgx::Game& game, const sgx::Component& component) {
  if (game.kind == sgx::GameKind::Code) return py::int_(component.at(0));
  return py::tuple(py::cast(component));
}

// The position's parts as sg_solve's words, so that parse_position checks them as it checks the
// command line: a heap 3 is "3"; a Wythoff pair (4, 7) two words; a sheet (4, 7) "4x7"; a
// Fibonacci state (18, 4) "18/4". Strings are taken as they are.
std::vector<std::string> position_words(const sgx::Game& game, const py::iterable& heaps) {
  std::vector<std::string> words;
  for (const py::handle item : heaps) {
    if (py::isinstance<py::str>(item)) {
      words.push_back(item.cast<std::string>());
    } else if (py::isinstance<py::int_>(item)) {
      words.push_back(py::str(item).cast<std::string>());
    } else if (py::isinstance<py::sequence>(item)) {
      std::vector<std::string> parts;
      for (const py::handle part : item) parts.push_back(py::str(part).cast<std::string>());
      if (game.kind == sgx::GameKind::Wythoff) {
        words.insert(words.end(), parts.begin(), parts.end());
      } else {
        const char* joint = game.kind == sgx::GameKind::Cut ? "x" : "/";
        std::string word;
        for (const std::string& part : parts) word.append(word.empty() ? "" : joint).append(part);
        words.push_back(word);
      }
    } else {
      throw py::type_error("heaps must hold ints, tuples or strings, got " +
                           py::str(py::type::of(item)).cast<std::string>());
    }
  }
  return words;
}

PySolution solve(const std::string& game_text, const py::iterable& heaps, bool misere) {
  const sgx::Game game = sgx::parse_game(game_text);
  const std::vector<sgx::Component> position = sgx::parse_position(game, position_words(game, heaps));
  sgx::SolveOptions options;
  options.misere = misere;
  sgx::Solution solution;
  {
    py::gil_scoped_release unlocked;
    solution = sgx::solve(game, position, options);
  }
  PySolution out{solution.value, solution.mover_wins, {}, solution.method, game.name, misere};
  for (const sgx::Move& move : solution.winning_moves) {
    py::list after;
    for (const sgx::Component& part : move.to) after.append(component_object(game, part));
    out.winning_moves.push_back({move.index + 1, component_object(game, move.from), after, sgx::move_text(game, move)});
  }
  return out;
}

std::string solution_repr(const PySolution& s) {
  std::string moves;
  for (const PyMove& move : s.winning_moves) moves.append(moves.empty() ? "" : ", ").append("<" + move.text + ">");
  return "Solution(game='" + s.game + "'" + (s.misere ? ", misere=True" : "") +
         ", value=" + (s.value ? std::to_string(*s.value) : "None") + ", outcome='" + (s.mover_wins ? "N" : "P") +
         "', winning_moves=[" + moves + "])";
}

// ---- files ----

struct PyRun {
  sgx::RunInfo info;
  // G(0..n-1); for a file of format version 2 with a released middle (an older run_octal
  // --memory), which holds no other values, G(0..prefix_n-1) and tail G(tail_start..n-1).
  py::array values;
  py::array tail;
  std::uint64_t n = 0;
  std::uint64_t tail_start = 0;  // n when there is no tail
  int format_version = 0;
  std::string path;
  std::vector<sgx::Milestone> milestones;
};

// Every version the tools read: a file that holds every value gives them all (a version-3 run with
// --memory included: its released middle is on disk); a version-2 file gives what it holds.
PyRun open_run(const py::object& path_object) {
  const std::string path = path_text(path_object);
  sgx::RunStatus status;
  sgx::RunRecord record;
  {
    py::gil_scoped_release unlocked;
    status = sgx::read_run_status(path);
    record = sgx::read_run_file(path, status.holds_every_value() ? sgx::LoadValues::All : sgx::LoadValues::AsRun);
  }
  const std::uint64_t n = record.values.size();
  const bool released = record.values.has_released();
  // As the run counted them, else counted now from the values (a file written before milestones).
  std::vector<sgx::Milestone> milestones;
  if (record.counter) {
    milestones = record.counter->milestones;
  } else if (!released) {
    py::gil_scoped_release unlocked;
    sgx::SplitTakeParity splits = sgx::SplitTakeParity::Mixed;
    try {
      splits = sgx::parse_heap_game(record.game).split_take_parity();
    } catch (const sgx::ParseError&) {
      // a sequence of no known game: masks without the position
    }
    sgx::StatsCounter counter(splits);
    counter.add(record.values, n);
    milestones = counter.milestones();
  }
  const std::uint64_t prefix_end = released ? record.values.prefix_end() : n;
  const std::uint64_t tail_start = released ? record.values.tail_start() : n;
  std::vector<py::array> parts = to_numpy_ranges(std::move(record.values), {{0, prefix_end}, {tail_start, n}});
  return {std::move(static_cast<sgx::RunInfo&>(record)), std::move(parts[0]), std::move(parts[1]), n, tail_start,
          status.format_version, path, std::move(milestones)};
}

// ---- run ----

// Computes the run of game in the file at path through the library's RunSession, as run_octal
// does: exactly n values, or until the period is proven (at least n, at most max_n). A run of the
// same game there is continued, its values kept; any other file there is left as it is. Ctrl-C
// stops it with a checkpoint, then raises KeyboardInterrupt. Returns the file opened.
PyRun run(const std::string& game, const py::object& path_object, const std::optional<std::int64_t>& n,
          const std::optional<bool>& until_proven, std::int64_t max_n, const std::optional<int>& threads,
          double checkpoint_every) {
  const std::string path = path_text(path_object);
  const sgx::Rules rules = sgx::parse_heap_game(game);
  const bool proving = until_proven.value_or(!n.has_value());
  if (n && *n < 0) throw py::value_error("n must be >= 0, got " + std::to_string(*n));
  if (!n && !proving) throw py::value_error("give n, or until_proven=True");
  if (max_n < 0) throw py::value_error("max_n must be >= 0, got " + std::to_string(max_n));
  if (threads && *threads < 1) throw py::value_error("threads must be at least 1, got " + std::to_string(*threads));
  if (!(checkpoint_every >= 0)) throw py::value_error("checkpoint_every must be >= 0 seconds");
  // Until proven without n: the first look at this many values, then as the proof needs.
  constexpr std::uint64_t kFirstLook = std::uint64_t{1} << 12;
  StopOnSignal stop;
  {
    py::gil_scoped_release unlocked;
    sgx::RunRecord stored;
    stored.game = rules.canonical();
    std::error_code error;
    const bool resume = std::filesystem::exists(path, error);
    if (resume) {
      const sgx::RunStatus status = sgx::read_run_status(path);
      if (status.game != stored.game)
        throw py::value_error(path + " holds a run of " + status.game + ", not " + stored.game +
                              ": it is left as it is; give another path");
      stored = sgx::read_run_file(path);
    }
    sgx::check_can_write(path);
    sgx::RunGoal goal;
    goal.until_proven = proving;
    goal.max_n = static_cast<std::uint64_t>(max_n);
    goal.n = n ? static_cast<std::uint64_t>(*n) : std::min(kFirstLook, goal.max_n);
    goal.n = std::max(goal.n, stored.values.size());  // stored values are never dropped
    sgx::RunSessionOptions options;
    options.engine.threads = threads.value_or(0);
    options.path = path;
    options.checkpoint_every = checkpoint_every;
    options.command = "sgx.run('" + game + "')";
    options.stop_requested = [&stop] { return !stop(sgx::Progress{}); };
    sgx::RunSession session(rules, std::move(stored), resume, std::move(options));
    session.run(goal);
  }
  stop.raise_if_stopped();
  return open_run(path_object);
}

std::string run_repr(const PyRun& run) {
  const std::string kept =
      run.tail_start < run.n ? ", kept='" + sgx::kept_values_text(run.values.size(), run.tail_start, run.n) + "'" : "";
  return "Run('" + run.path + "', game='" + run.info.game + "', n=" + std::to_string(run.n) + kept +
         ", complete=" + (run.info.complete ? "True" : "False") + ", engine='" + run.info.engine + "', period=" +
         period_repr(run.info.period) + ")";
}

py::dict games() {
  py::dict named;
  for (const sgx::NamedGame& game : sgx::named_games()) named[game.name] = game.code;
  return named;
}

py::object value_at_n(const sgx::Milestone& milestone) {
  return milestone.value_at_n ? py::object(py::int_(*milestone.value_at_n)) : py::object(py::none());
}

// The counts of G(1..N) by value, as published record runs list them: G(0..N-1) less G(0) = 0,
// plus G(N).
std::vector<std::uint64_t> counts_from_1(const sgx::Milestone& milestone) {
  const std::string n = std::to_string(milestone.n);
  if (!milestone.value_at_n)
    throw py::value_error("G(" + n + ") is not known: the run holds " + n + " values; run it to " +
                          std::to_string(milestone.n + 1) + " to count G(1.." + n + ")");
  const auto& histogram = milestone.stats.histogram;
  std::vector<std::uint64_t> counts(histogram.begin(), histogram.begin() + milestone.stats.max_value + 1);
  --counts[0];  // G(0) = 0 for every heap game
  if (*milestone.value_at_n >= counts.size()) counts.resize(*milestone.value_at_n + 1, 0);
  ++counts[*milestone.value_at_n];
  return counts;
}

std::string milestone_repr(const sgx::Milestone& milestone) {
  return "Milestone(n=" + std::to_string(milestone.n) +
         ", value_at_n=" + (milestone.value_at_n ? std::to_string(*milestone.value_at_n) : std::string("None")) +
         ", max_value=" + std::to_string(milestone.stats.max_value) +
         ", rare_count=" + std::to_string(milestone.stats.rare_count) + ")";
}

}  // namespace

// The compiled part of the package sgx (python/sgx/__init__.py), which gives each function its
// signature and its documentation; the classes are documented here.
PYBIND11_MODULE(_sgx, m) {
  m.doc() = "The compiled part of sgx: use the package sgx, which documents every function.";
  m.attr("__version__") = sgx::kVersion;

  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const sgx::ParseError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const sgx::StoreError& e) {
      PyErr_SetString(PyExc_OSError, e.what());
    } catch (const std::bad_alloc&) {  // pybind11 alone would say only "std::bad_alloc"
      PyErr_SetString(PyExc_MemoryError, "out of memory: ask for fewer values, or use a machine with more memory");
    }
  });

  m.def("sequence", &sequence, py::arg("game"), py::arg("n"), py::arg("threads"), py::arg("engine"));

  py::class_<sgx::PeriodResult>(m, "Period", "The eventual (arithmetic) period of a sequence; see sgx.period.")
      .def_readonly("found", &sgx::PeriodResult::found, "a periodic tail with enough repetitions was seen")
      .def_property_readonly(
          "preperiod", [](const sgx::PeriodResult& p) { return none_unless(p.found, p.preperiod); },
          "n0: G(n + p) = G(n) + saltus for n >= n0; None when no period was found")
      .def_property_readonly(
          "period", [](const sgx::PeriodResult& p) { return none_unless(p.found, p.period); },
          "p; None when no period was found")
      .def_property_readonly(
          "saltus",
          [](const sgx::PeriodResult& p) { return p.found ? py::object(py::int_(p.saltus)) : py::object(py::none()); },
          "0 for ordinary periodicity; None when no period was found")
      .def_readonly("proven", &sgx::PeriodResult::proven, "a theorem certifies the period from the values given")
      .def_property_readonly("theorem", &theorem_object, "the theorem that proved the period; None unless proven")
      .def_property_readonly(
          "proof_needs_n", [](const sgx::PeriodResult& p) { return none_unless(p.proof_needs_n > 0, p.proof_needs_n); },
          "values the proof needs; None when no period was found, no theorem applies to the game, or the period "
          "has a saltus")
      .def_readonly("exceptions", &sgx::PeriodResult::exceptions, "n < n0 that break the period")
      .def_readonly("checked_n", &sgx::PeriodResult::checked_n, "how many values were analysed")
      .def("__repr__", &period_repr)
      .def("__str__", &sgx::period_text);

  m.def("period", &period, py::arg("values"), py::arg("game"));

  py::class_<sgx::SparseStats>(m, "Stats", "Rare-value statistics of a sequence; see sgx.stats.")
      .def_property_readonly(
          "rare_mask", [](const sgx::SparseStats& s) { return s.rare_mask.values; },
          "the value bits of the mask with the fewest rare positions")
      .def_property_readonly(
          "rare_position_bit", [](const sgx::SparseStats& s) { return s.rare_mask.with_position; },
          "whether the heap's parity enters the rare test (only with a game whose splits take one parity)")
      .def_readonly("rare_count", &sgx::SparseStats::rare_count, "positions rare under rare_mask")
      .def_readonly("last_rare", &sgx::SparseStats::last_rare, "the largest rare position, -1 if none")
      .def_readonly("max_value", &sgx::SparseStats::max_value)
      .def_readonly("max_at", &sgx::SparseStats::max_at, "first position of max_value")
      .def_property_readonly("histogram", &histogram_array, "histogram[v]: positions with value v")
      .def("__repr__", &stats_repr);

  m.def("stats", &stats, py::arg("values"), py::arg("game"));
  m.def("rare_flags", &rare_flags, py::arg("stats"), py::arg("values"), py::arg("start"));

  py::class_<PyMove>(m, "Move", "A winning move: which part of the position, and what it leaves.")
      .def_readonly("index", &PyMove::index, "which heap (or pair, sheet), counting from 1 as the tools do")
      .def_readonly("before", &PyMove::before, "the heap before the move")
      .def_readonly("after", &PyMove::after, "what the move leaves in its place ([] when the heap is taken)")
      .def("__repr__", [](const PyMove& move) { return "<" + move.text + ">"; })
      .def("__str__", [](const PyMove& move) { return move.text; });

  py::class_<PySolution>(m, "Solution", "The value of a position, who wins, and every winning move.")
      .def_readonly("value", &PySolution::value,
                    "the Sprague-Grundy value (misere: of the whole position); None when not computed")
      .def_property_readonly(
          "outcome", [](const PySolution& s) { return s.mover_wins ? "N" : "P"; },
          "'N': the player to move wins; 'P': the player to move loses")
      .def_readonly("mover_wins", &PySolution::mover_wins)
      .def_readonly("winning_moves", &PySolution::winning_moves)
      .def_readonly("method", &PySolution::method, "how the answer was found")
      .def("__repr__", &solution_repr);

  m.def("solve", &solve, py::arg("game"), py::arg("heaps"), py::arg("misere"));

  py::class_<sgx::Milestone>(m, "Milestone", "The statistics of G(0..N-1) at a power of two N a run passed.")
      .def_readonly("n", &sgx::Milestone::n, "N")
      .def_property_readonly("value_at_n", &value_at_n, "G(N), None when the run holds exactly N values")
      .def_readonly("stats", &sgx::Milestone::stats, "histogram, largest value, rare mask and its rare positions")
      .def("__repr__", &milestone_repr);
  m.def("counts_from_1", &counts_from_1, py::arg("milestone"));

  py::class_<PyRun>(m, "Run", "A run file written by run_octal: its values and what it says about them.")
      .def_readonly("values", &PyRun::values,
                    "G(0..n-1) as a numpy array; for a file of format version 2 with a released middle, "
                    "G(0..prefix_n-1), the values it holds before that middle")
      .def_readonly("tail", &PyRun::tail,
                    "G(tail_start..n-1) of a file of format version 2 with a released middle; empty otherwise")
      .def_readonly("tail_start", &PyRun::tail_start, "the n of tail[0]; n when there is no tail")
      .def_readonly("format_version", &PyRun::format_version)
      .def_readonly("path", &PyRun::path)
      .def_property_readonly("game", [](const PyRun& r) { return r.info.game; }, "canonical code")
      .def_readonly("n", &PyRun::n, "how many values the run computed")
      .def_property_readonly("complete", [](const PyRun& r) { return r.info.complete; },
                             "False for a checkpoint that has not reached target_n")
      .def_property_readonly("target_n", [](const PyRun& r) { return r.info.target_n; })
      .def_property_readonly("engine", [](const PyRun& r) { return r.info.engine; })
      .def_property_readonly("program_version", [](const PyRun& r) { return r.info.program_version; })
      .def_property_readonly("stats", [](const PyRun& r) { return r.info.stats; })
      .def_property_readonly("period", [](const PyRun& r) { return r.info.period; })
      .def_readonly("milestones", &PyRun::milestones,
                    "the statistics of G(0..N-1) at every power of two N <= n, a Milestone each (none for a "
                    "version-2 file written without them)")
      // The file is read whole when opened and closed at once: `with sgx.open(path) as run:` holds
      // nothing open, and the values stay valid after the block.
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](const py::object&, const py::args&) { return false; })
      .def("__repr__", &run_repr);

  m.def("open", &open_run, py::arg("path"));
  m.def("run", &run, py::arg("game"), py::arg("path"), py::arg("n"), py::arg("until_proven"), py::arg("max_n"),
        py::arg("threads"), py::arg("checkpoint_every"));
  m.def("canonical", [](const std::string& code) { return sgx::parse_heap_game(code).canonical(); }, py::arg("code"));
  m.def("games", &games);
}
