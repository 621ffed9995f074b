// The store's deflate (src/store/fast_deflate.hpp) against zlib's run-length strategy, which it
// replaced: bytes a second, on a run's values in pieces as large as the store's chunks, and the
// stream's size beside. Run:
// build/bench/bench_deflate

#include <benchmark/benchmark.h>
#include <zlib.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sgx/engine.hpp"
#include "sgx/rules.hpp"
#include "store/fast_deflate.hpp"

namespace {

constexpr std::uint64_t kValues = std::uint64_t{1} << 20;
constexpr std::size_t kPiece = std::size_t{1} << 20;  // about a chunk of the store

// G(0..2^20-1) as the store deflates them: one byte each while they fit, else two, shuffled as
// HDF5's filter does (each piece's low bytes, then its high bytes).
std::vector<unsigned char> values_of(const std::string& code) {
  const sgx::Sequence values = sgx::compute_sequence(sgx::parse_rules(code), kValues, sgx::KernelKind::Sparse, 0, true);
  std::uint64_t width = 1;
  for (std::uint64_t n = 0; n < kValues; ++n) {
    if (values[n] > 65535) throw std::runtime_error(code + " has values past two bytes");
    if (values[n] > 255) width = 2;
  }
  std::vector<unsigned char> bytes(kValues * width);
  const std::uint64_t per_piece = kPiece / width;
  for (std::uint64_t n = 0; n < kValues; ++n) {
    const std::uint64_t piece = n / per_piece, at = n % per_piece;
    for (std::uint64_t b = 0; b < width; ++b)
      bytes[piece * kPiece + b * per_piece + at] = static_cast<unsigned char>(values[n] >> (8 * b));
  }
  return bytes;
}

void report(benchmark::State& state, std::size_t bytes_in, std::size_t bytes_out) {
  state.counters["bytes/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * bytes_in), benchmark::Counter::kIsRate);
  state.counters["ratio"] = static_cast<double>(bytes_out) / static_cast<double>(bytes_in);
}

void fast(benchmark::State& state, const std::string& code) {
  const std::vector<unsigned char> bytes = values_of(code);
  std::vector<unsigned char> out(sgx::hdf5::fast_deflate_bound(kPiece));
  std::size_t written = 0;
  for (auto _ : state) {
    written = 0;
    for (std::size_t first = 0; first < bytes.size(); first += kPiece)
      written += sgx::hdf5::fast_deflate(bytes.data() + first, kPiece, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  report(state, bytes.size(), written);
}

void zlib_rle(benchmark::State& state, const std::string& code) {
  const std::vector<unsigned char> bytes = values_of(code);
  z_stream stream{};
  if (deflateInit2(&stream, 1, Z_DEFLATED, 15, 8, Z_RLE) != Z_OK) throw std::runtime_error("deflateInit2");
  std::vector<unsigned char> out(deflateBound(&stream, kPiece));
  std::size_t written = 0;
  for (auto _ : state) {
    written = 0;
    for (std::size_t first = 0; first < bytes.size(); first += kPiece) {
      deflateReset(&stream);
      stream.next_in = const_cast<unsigned char*>(bytes.data() + first);  // zlib's interface is not const
      stream.avail_in = static_cast<uInt>(kPiece);
      stream.next_out = out.data();
      stream.avail_out = static_cast<uInt>(out.size());
      if (deflate(&stream, Z_FINISH) != Z_STREAM_END) throw std::runtime_error("deflate");
      written += out.size() - stream.avail_out;
    }
    benchmark::DoNotOptimize(out.data());
  }
  deflateEnd(&stream);
  report(state, bytes.size(), written);
}

}  // namespace

BENCHMARK_CAPTURE(fast, 0.16, "0.16")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(zlib_rle, 0.16, "0.16")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(fast, 0.6, "0.6")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(zlib_rle, 0.6, "0.6")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(fast, grundy, "4!.0")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(zlib_rle, grundy, "4!.0")->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
