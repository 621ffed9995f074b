// The sweep on one machine, in one process: what sg_sweep does when built without MPI.

#include "sweep_cluster.hpp"

#include "cli.hpp"

namespace sgx::cli {

Cluster::Cluster(int&, char**&) {}
Cluster::~Cluster() = default;

void Cluster::run(const SweepJob& job, const std::vector<std::size_t>& pending, const RowHandler& on_row) {
  sweep_locally(job, pending, on_row);
}

int Cluster::serve() { return kExitOk; }

void Cluster::finish(int) {}

}  // namespace sgx::cli
